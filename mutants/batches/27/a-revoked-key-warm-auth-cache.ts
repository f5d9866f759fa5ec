import { AsyncLocalStorage } from 'node:async_hooks';
import { defineMutant } from '../../mutant.js';
import { beforeReference } from '../../support.js';

/*
 * How this happens: the API is split into one serverless function per resource (workspaces,
 * records, taxonomies, api_keys, ...), all sharing one auth middleware package. To save a table
 * read per request, the middleware keeps every key it has validated in a module-scope Map for five
 * minutes, so a warm function instance answers from memory. The api_keys function evicts the key
 * from its own Map when it deletes it, which is what the team's revocation test exercises (create,
 * delete, then list keys with it: 401). The other functions' warm instances never hear of the
 * deletion: a key that was used on, say, /api/v1/workspaces shortly before it was deleted keeps
 * working there until its cache entry expires. A key never used before deletion, or used only on
 * another resource, is refused at once.
 */
const TTL_MS = 5 * 60 * 1000;

export default defineMutant({
  description:
    'A deleted API key keeps authenticating for up to five minutes on every resource (other than api_keys) where it was used shortly before deletion, because each per-resource function caches validated keys in instance memory.',
  breaks: { 'KEY-5': 'fail' },
  collateral: ['AUTH-3', 'AUTH-8', 'KEY-6'],
  modify: (reference) => {
    const { store } = reference.state;
    /** The function (first path segment under /api/v1/) serving the request being authenticated. */
    const serving = new AsyncLocalStorage<string>();
    beforeReference(reference, (req) => {
      const match = /^\/api\/v1\/([^/?#]+)/.exec(req.url ?? '');
      if (match) serving.enterWith(match[1]!);
    });
    /** Per function: key id → when its instance last read the key from the table. */
    const warm = new Map<string, Map<string, number>>();
    const find = store.findKey.bind(store);
    store.findKey = (token) => {
      const key = find(token);
      const fn = serving.getStore();
      // The api_keys function evicts what it deletes, so it always sees the table's truth.
      if (!key || fn === undefined || fn === 'api_keys') return key;
      let cache = warm.get(fn);
      if (!cache) warm.set(fn, (cache = new Map()));
      const now = reference.state.now();
      const cachedAt = cache.get(key.id);
      const fresh = cachedAt !== undefined && now - cachedAt < TTL_MS;
      if (fresh && key.revokedAtMs !== null) return { ...key, revokedAtMs: null };
      if (!fresh && key.revokedAtMs === null) cache.set(key.id, now);
      return key;
    };
  },
});
