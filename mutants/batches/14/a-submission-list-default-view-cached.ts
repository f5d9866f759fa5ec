import type { FastifyRequest } from 'fastify';
import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: the unfiltered submission list is what every dashboard polls, so its responses
 * are cached for a minute per account and URL (filtered queries skip the cache: their key space is
 * too large). The cache is invalidated from the web app's "new submission" action, which was the
 * only way to create one when the cache was added; the API's POST /submissions never clears it.
 * A list read before a submission is created is served again, stale, for up to a minute after.
 */
export default defineMutant({
  description:
    'The unfiltered submission list is cached per account and URL for 60 s and not invalidated by POST /api/v1/submissions, so after a creation it omits the new submission and its total_count is stale, while filtered lists are fresh.',
  breaks: { 'SUB-4': 'fail' },
  collateral: ['PAG-6', 'PAG-7', 'PAG-9'],
  provokedBy: ['PAG'],
  modify: (reference) => {
    const { state } = reference;
    const list = state.profile.paths.submissionList;
    if (!list) return;
    const filters = Object.values(state.profile.submissions.listFilters ?? { workspace: 'workspace_id', taxonomy: 'taxonomy_id' }).filter(
      (f): f is string => typeof f === 'string' && f !== '',
    );
    const ttlMs = 60_000;
    const cache = new Map<string, { body: string; contentType: string; atMs: number }>();
    const served = new WeakSet<object>();
    const cacheKey = (req: FastifyRequest): string | null => {
      // No account: the request was refused before authentication completed.
      if (req.method !== 'GET' || pathOf(req) !== list || !req.account) return null;
      const query = req.query as Record<string, unknown>;
      if (filters.some((f) => query[f] !== undefined)) return null;
      return `${req.account.id} ${req.url}`;
    };
    reference.app.addHook('preHandler', async (req, reply) => {
      const key = cacheKey(req);
      if (key === null) return;
      const hit = cache.get(key);
      if (!hit || state.now() - hit.atMs >= ttlMs) return;
      served.add(req);
      return reply.code(200).type(hit.contentType).send(hit.body);
    });
    reference.app.addHook('onSend', async (req, reply, payload) => {
      const key = cacheKey(req);
      if (key === null || served.has(req) || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      cache.set(key, { body: payload, contentType: String(reply.getHeader('content-type') ?? 'application/json'), atMs: state.now() });
      return payload;
    });
  },
});
