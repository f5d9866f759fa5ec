import type { FastifyRequest } from 'fastify';
import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/** API Gateway's default stage cache TTL. */
const TTL_MS = 300_000;

/*
 * How this happens: after the move to AWS Lambda behind API Gateway, the workspace and governance
 * model lists show up as the hottest cold-start paths (each one loads the account's catalogue from
 * DynamoDB). Someone turns on the stage cache for the "reference data" GET methods with the default
 * TTL of 300 seconds and declares `page` and `limit` as cache key parameters, so pages do not mix.
 * The Authorization header is not a cache key parameter: the Lambda authorizer still runs for every
 * request (so a bad key is still a 401 and the rate headers are still written per request), but the
 * body of a cached method response is served to whichever account asks next for the same path and
 * query. Every test account in staging has the same seed data shape, so nobody notices that a
 * second account sees the first account's workspaces for five minutes.
 */
export default defineMutant({
  description:
    "The gateway caches the workspace and governance model list responses for 300 seconds keyed on path, page and limit but not on the API key, so another account is served the first account's lists.",
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['RES-4', 'RES-7', 'RATE-8'],
  modify: (reference) => {
    const { state } = reference;
    const cachedPaths = new Set(['/api/v1/workspaces', '/api/v1/governance_models']);
    const cache = new Map<string, { body: string; storedAtMs: number }>();
    const fromCache = new WeakSet<FastifyRequest>();
    // The cache key: path plus the declared cache key parameters, in a fixed order.
    const cacheKey = (req: FastifyRequest): string | null => {
      if (req.method !== 'GET' || !cachedPaths.has(pathOf(req))) return null;
      const query = req.query as Record<string, unknown>;
      return `${pathOf(req)}?page=${String(query.page ?? '')}&limit=${String(query.limit ?? '')}`;
    };
    // After the authorizer (the reference's onRequest hook), before the integration.
    reference.app.addHook('preHandler', async (req, reply) => {
      const key = cacheKey(req);
      if (key === null) return;
      const hit = cache.get(key);
      if (!hit || state.now() - hit.storedAtMs >= TTL_MS) return;
      fromCache.add(req);
      return reply.code(200).type('application/json; charset=utf-8').send(hit.body);
    });
    reference.app.addHook('onSend', async (req, reply, payload) => {
      const key = cacheKey(req);
      if (key === null || fromCache.has(req) || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      cache.set(key, { body: payload, storedAtMs: state.now() });
      return payload;
    });
  },
});
