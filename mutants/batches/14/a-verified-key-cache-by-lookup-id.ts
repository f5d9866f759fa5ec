import { defineMutant } from '../../mutant.js';

/*
 * How this happens: keys are stored as slow password hashes (bcrypt), so checking one costs tens of
 * milliseconds. To spare that on every request, the auth middleware caches a verified key for ten
 * minutes under its "lookup id", the first eight characters after the prefix (the part that is
 * indexed in the database), and on a cache hit it skips the hash comparison altogether. The first
 * request of a key is checked in full; every later token that merely starts like it (the real key
 * with its tail changed, cut or extended) is taken for it. Deletion evicts the cache entry, so
 * revocation still works.
 */
export default defineMutant({
  description:
    'Once a key has authenticated, any token sharing its prefix and first eight secret characters (a changed, cut or extended tail) is accepted as that key for ten minutes.',
  breaks: { 'AUTH-3': 'fail' },
  collateral: ['AUTH-8'],
  modify: (reference) => {
    const { store } = reference.state;
    const prefix = store.keyPrefix;
    const ttlMs = 10 * 60 * 1000;
    const lookupLength = 8;
    const verified = new Map<string, { key: NonNullable<ReturnType<typeof store.findKey>>; atMs: number }>();
    const faithful = store.findKey.bind(store);
    store.findKey = (token) => {
      const lookupId = token.startsWith(prefix) && token.length >= prefix.length + lookupLength ? token.slice(0, prefix.length + lookupLength) : null;
      const now = reference.state.now();
      if (lookupId !== null) {
        const hit = verified.get(lookupId);
        // A deleted key was evicted from the cache: fall through to the full check.
        if (hit && hit.key.revokedAtMs === null && now - hit.atMs < ttlMs) return hit.key;
        if (hit) verified.delete(lookupId);
      }
      const found = faithful(token);
      if (found && found.revokedAtMs === null && lookupId !== null) verified.set(lookupId, { key: found, atMs: now });
      return found;
    };
  },
});
