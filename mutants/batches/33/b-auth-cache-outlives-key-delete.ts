import { defineMutant } from '../../mutant.js';

/** How long the authenticator trusts a cached lookup, on the server's own clock. */
const CACHE_TTL_MS = 15 * 60 * 1000;

/*
 * How this happens: to keep the database out of the hot path, the authenticator caches each key
 * it has validated (by the key's id, with the record as it was then) for fifteen minutes. Deleting
 * a key marks its row revoked and lists/deletes read the database, so the key disappears from the
 * list and a second delete is 404, as the tests expect. But the invalidation call on delete passes
 * the key's hash where the cache is keyed by id, so it evicts nothing. A key that was never used
 * is not in the cache and is refused at once after deletion; a key that has been used at least
 * once keeps authenticating until its cache entry expires.
 */
export default defineMutant({
  description:
    'A deleted API key that had been used before its deletion keeps authenticating (from a stale auth cache) for 15 minutes; a key deleted before any use is refused at once.',
  breaks: { 'KEY-5': 'fail', 'AUTH-3': 'fail' },
  collateral: ['AUTH-8'],
  modify: (reference) => {
    const { store } = reference.state;
    const lookup = store.findKey.bind(store);
    /** Key id -> server time its lookup was cached. */
    const cachedAt = new Map<string, number>();
    store.findKey = (token) => {
      const key = lookup(token);
      if (!key) return null;
      const now = reference.state.now();
      const since = cachedAt.get(key.id);
      const fresh = since !== undefined && now - since < CACHE_TTL_MS;
      if (key.revokedAtMs === null) {
        if (!fresh) cachedAt.set(key.id, now);
        return key;
      }
      // Revoked in the database, but the cache still holds the record as it was: live.
      return fresh ? { ...key, revokedAtMs: null } : key;
    };
  },
});
