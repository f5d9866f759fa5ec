import { defineMutant } from '../../mutant.js';
import type { ApiKeyRecord } from '../../../reference/store.js';

/*
 * How this happens: key verification moved to a separate auth service, and to save a round trip
 * per request the API caches the resolved principal for five minutes, under a cache key made from
 * the Authorization value. Because the Bearer scheme is case-insensitive (RFC 7235) and the cache
 * had filled with duplicate entries for "Bearer" and "bearer", someone normalised the value with
 * `toLowerCase()` before hashing it into the cache key, which lower-cases the token too. While a
 * genuine key's entry is warm, the same key with the case of its secret's letters changed hits the
 * cache and is accepted. Revocation still evicts the entry (the auth service publishes it), and
 * the team's negative tests use made-up or revoked keys, which miss the cache and get 401.
 */
const CACHE_TTL_MS = 5 * 60_000;

export default defineMutant({
  description:
    "For five minutes after a key authenticates, the principal cache is keyed by the lower-cased token, so the same key with the case of its secret's letters changed authenticates instead of getting 401.",
  breaks: { 'AUTH-3': 'fail' },
  collateral: ['AUTH-8'],
  modify: (reference) => {
    const { state } = reference;
    const { store } = state;
    const cache = new Map<string, { key: ApiKeyRecord; until: number }>();
    const verify = store.findKey.bind(store);
    store.findKey = (token) => {
      const slot = token.toLowerCase();
      const now = state.now();
      const hit = cache.get(slot);
      if (hit && hit.until > now && hit.key.revokedAtMs === null) return hit.key;
      const key = verify(token);
      if (key && key.revokedAtMs === null) cache.set(slot, { key, until: now + CACHE_TTL_MS });
      return key;
    };
  },
});
