import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';

/** How long a cached answer is served. */
const TTL_MS = 30_000;

/*
 * How this happens: to absorb the burst of identical reads that follows each deploy and scale-out,
 * the team put a response cache in front of the workspace and governance-model reads and marked
 * them `Cache-Control: public, max-age=30`. The cache sits after authentication, so every caller
 * still needs a valid key, but `public` lets a shared cache reuse an answer given to another
 * Authorization header, and the cache key is the URL alone. Within thirty seconds of one account
 * reading a URL, a key of any other account reading the same URL gets the first account's data.
 */
export default defineMutant({
  description:
    "GET answers for workspaces and governance models (lists and single items) are cached for 30 s by URL alone, so another account's key requesting the same URL meanwhile is served the first account's data.",
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['RES-4', 'RES-7', 'PAG-8'],
  provokedBy: ['RES'],
  modify: (reference) => {
    const { profile } = reference.state;
    const lists = ['/api/v1/workspaces', '/api/v1/governance_models'];
    const prefixes = [itemPrefix(profile.paths.workspace), itemPrefix(profile.paths.governanceModel)].filter((p): p is string => p !== null);
    const cacheable = (path: string): boolean =>
      lists.includes(path) || prefixes.some((p) => path.startsWith(p) && path.length > p.length && !path.slice(p.length).includes('/'));
    const cache = new Map<string, { body: string; storedAtMs: number }>();
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string' || !cacheable(pathOf(req))) return payload;
      const now = reference.state.now();
      reply.header('cache-control', `public, max-age=${TTL_MS / 1000}`);
      const entry = cache.get(req.url);
      if (entry && now - entry.storedAtMs < TTL_MS) {
        reply.header('age', String(Math.max(0, Math.floor((now - entry.storedAtMs) / 1000))));
        return entry.body;
      }
      cache.set(req.url, { body: payload, storedAtMs: now });
      return payload;
    });
  },
});
