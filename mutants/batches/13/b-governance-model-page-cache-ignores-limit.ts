import { defineMutant } from '../../mutant.js';
import { isEnvelope, pathOf, rewriteJson, beforeHandler } from '../../support.js';

/*
 * How this happens: governance models change rarely, so a second team put an in-process page
 * cache in front of the list after the parameters are validated. Its key is the account and the
 * page number; `limit` was added to the endpoint later and never made it into the key, so a page
 * first read at one limit is served again, items and has_more included, at any other limit.
 */
export default defineMutant({
  description:
    'The governance model list caches each page by account and page number only, so a later request for the same page with another limit gets the page cut at the earlier limit.',
  breaks: { 'PAG-6': 'fail', 'PAG-7': 'fail' },
  collateral: ['PAG-2', 'PAG-8', 'PAG-9'],
  modify: (reference) => {
    const { state } = reference;
    const path = '/api/v1/governance_models';
    const ttlMs = 60_000;
    const cache = new Map<string, { body: unknown; at: number }>();
    const keyOf = (accountId: string, page: bigint) => `${accountId}:${page}`;
    beforeHandler(reference, async (req, reply) => {
      if (req.method !== 'GET' || pathOf(req) !== path) return;
      const query = req.query as Record<string, unknown>;
      const page = state.behaviour.parsePageParam(query.page, 'page');
      const limit = state.behaviour.parsePageParam(query.limit, 'limit');
      if (!page.ok || !limit.ok) return; // validation runs before the cache
      const hit = cache.get(keyOf(req.account.id, page.value));
      if (hit && state.now() - hit.at < ttlMs) return reply.code(200).send(hit.body);
    });
    rewriteJson(reference, (body, req, reply) => {
      if (req.method !== 'GET' || pathOf(req) !== path || reply.statusCode !== 200 || !isEnvelope(body)) return body;
      const page = state.behaviour.parsePageParam((req.query as Record<string, unknown>).page, 'page');
      const key = page.ok ? keyOf(req.account.id, page.value) : null;
      const old = key ? cache.get(key) : undefined;
      if (key && (!old || state.now() - old.at >= ttlMs)) cache.set(key, { body, at: state.now() });
      return body;
    });
  },
});
