import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: the mobile team complains that app start is slow, because the app loads the
 * workspace and governance-model lists on every launch. Those lists "hardly ever change", so the
 * backend team puts a small in-process response cache in front of the two endpoints, with a
 * ten-minute TTL. The cache key is the request URL (path and query), copied from the CDN rule the
 * team used for the public docs site; nobody adds the account (or the Authorization header) to the
 * key, because in testing every developer used the one demo account. The first account to list a
 * URL fills the entry, and every other account asking for the same URL within the TTL gets that
 * account's workspaces and models.
 */

const CACHED_LISTS = new Set(['/api/v1/workspaces', '/api/v1/governance_models']);
const TTL_MS = 10 * 60 * 1000;

export default defineMutant({
  description:
    "The workspace and governance-model lists are served from a ten-minute response cache keyed by URL only, so a key of another account asking for the same URL receives the first account's workspaces and models.",
  breaks: { 'AUTH-6': 'fail' },
  // If the second account's key fills an entry first, the main account's lists show the other
  // account's workspaces: retrievals of those ids are 404, and a submission to the first listed
  // workspace is refused before its body is read.
  collateral: ['RES-4', 'RES-7', 'SUB-1', 'SUB-2', 'SUB-3', 'SUB-5', 'ERR-3'],
  provokedBy: ['RES'],
  modify: (reference) => {
    const { state } = reference;
    const cache = new Map<string, { body: string; storedAtMs: number }>();
    const fromCache = new WeakSet<object>();
    reference.app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'GET' || !CACHED_LISTS.has(pathOf(req))) return;
      const hit = cache.get(req.url);
      if (!hit || state.now() - hit.storedAtMs >= TTL_MS) return;
      fromCache.add(req);
      return reply.code(200).type('application/json; charset=utf-8').send(hit.body);
    });
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || !CACHED_LISTS.has(pathOf(req)) || fromCache.has(req)) return payload;
      if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      cache.set(req.url, { body: payload, storedAtMs: state.now() });
      return payload;
    });
  },
});
