import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: governance models change a few times a year, and the models list showed up in
 * a latency report, so a developer wraps its handler in a small in-process response cache with a
 * five-minute TTL. The cache key is the request URL (path and query string), the usual default of
 * such middleware; the account, which lives in the Authorization header and not in the URL, is not
 * part of it. Whichever account lists the models first fills the cache, and every other account
 * asking for the same URL within five minutes is served that account's models.
 */
const TTL_MS = 5 * 60 * 1000;
const LIST = '/api/v1/governance_models';

export default defineMutant({
  description:
    'The governance model list is served from a response cache keyed by URL only, so for five minutes every account is served the models of whichever account listed them first.',
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['RES-4', 'RES-7', 'PAG-8'],
  modify: (reference) => {
    const { state } = reference;
    const cache = new Map<string, { body: string; contentType: string; expiresAtMs: number }>();
    reference.app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'GET' || pathOf(req) !== LIST) return;
      const hit = cache.get(req.url);
      if (!hit || hit.expiresAtMs <= state.now()) return;
      (req as { fromCache?: boolean }).fromCache = true;
      return reply.code(200).type(hit.contentType).send(hit.body);
    });
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || pathOf(req) !== LIST || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      if ((req as { fromCache?: boolean }).fromCache) return payload;
      cache.set(req.url, {
        body: payload,
        contentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
        expiresAtMs: state.now() + TTL_MS,
      });
      return payload;
    });
  },
});
