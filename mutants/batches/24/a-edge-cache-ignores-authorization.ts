import type { FastifyRequest } from 'fastify';
import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';

/** API Gateway's default cache time to live. */
const TTL_MS = 300_000;

/*
 * How this happens: workspaces, governance models, records and the taxonomy/field/picklist catalogue
 * "never change", so the team enables AWS API Gateway stage caching on their GET methods (TTL 300 s)
 * to take load off the service. The Lambda authorizer still runs first, so a missing, unknown or
 * revoked key is still refused, and the rate-limit headers are still written per key. But the
 * method cache keys are only the resource path and the query parameters (page, limit): the
 * Authorization header was never added as a cache key. Within the TTL, whichever account first
 * asked for a URL gets its 200 served to every other account asking for the same URL.
 */
export default defineMutant({
  description:
    "The gateway caches 200 responses of GET lists and retrievals of workspaces, governance models, records, taxonomies, fields and picklists for 300 s keyed on path and query only, so one account's key is served another account's cached list or resource.",
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['RES-4', 'RES-7', 'PAG-7', 'PAG-8'],
  provokedBy: ['RES'],
  modify: (reference) => {
    const { paths } = reference.state.profile;
    const lists = new Set(
      ['/api/v1/workspaces', '/api/v1/governance_models', '/api/v1/records', paths.taxonomies, paths.fields, paths.picklists].filter((p): p is string => !!p),
    );
    const items = [paths.workspace, paths.governanceModel, paths.record, paths.taxonomy, paths.field, paths.picklist]
      .map(itemPrefix)
      .filter((p): p is string => !!p);
    /** Path plus the query parameters in a fixed order; never the Authorization header. */
    const cacheKey = (req: FastifyRequest): string | null => {
      if (req.method !== 'GET') return null;
      const path = pathOf(req);
      const isItem = items.some((p) => path.startsWith(p) && path.length > p.length && !path.slice(p.length).includes('/'));
      if (!lists.has(path) && !isItem) return null;
      const params = new URLSearchParams(req.url.slice(path.length));
      params.sort();
      return `${path}?${params.toString()}`;
    };
    const cache = new Map<string, { body: string; type: string; expiresAtMs: number }>();
    const fresh = (key: string) => {
      const entry = cache.get(key);
      return entry && entry.expiresAtMs > reference.state.now() ? entry : undefined;
    };
    // After authentication and rate limiting (the authorizer and usage plan run before the cache).
    reference.app.addHook('preHandler', async (req, reply) => {
      const key = cacheKey(req);
      if (key === null) return;
      const hit = fresh(key);
      if (!hit) return;
      return reply.code(200).type(hit.type).send(hit.body);
    });
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const key = cacheKey(req);
      if (key === null || fresh(key)) return payload;
      const type = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
      cache.set(key, { body: payload, type, expiresAtMs: reference.state.now() + TTL_MS });
      return payload;
    });
  },
});
