import { defineMutant } from '../../mutant.js';
import type { ApiKeyRecord } from '../../../reference/store.js';

/*
 * How this happens: to keep key lookups off the database, every API instance keeps an in-process
 * LRU of token hash -> key row, filled on a successful lookup with a fixed two-minute TTL (not
 * refreshed on a hit). Deleting a key writes `revoked_at` and publishes an invalidation on the
 * Redis channel; the subscriber evicts the shared Redis cache, but it was never wired to the
 * in-process LRU that sits in front of it. A key that nobody has used is looked up in the database
 * and refused at once, which is what the team's test does (create, delete, expect 401). A key
 * that was used shortly before it was deleted, the normal case for a leaked key being rotated out,
 * keeps authenticating until its cache entry expires.
 */
const CACHE_TTL_MS = 120_000;

export default defineMutant({
  description:
    'A key that authenticated within the two minutes before its deletion keeps working after the DELETE until its per-instance auth cache entry expires; only never-used keys are refused at once.',
  breaks: { 'KEY-5': 'fail' },
  collateral: ['AUTH-3'],
  modify: (reference) => {
    const { store } = reference.state;
    const lookup = store.findKey.bind(store);
    /** When each key's positive entry was cached, by key id. */
    const cachedAt = new Map<string, number>();
    store.findKey = (token: string): ApiKeyRecord | null => {
      const key = lookup(token);
      if (!key) return null;
      const now = reference.state.now();
      const at = cachedAt.get(key.id);
      const fresh = at !== undefined && now - at < CACHE_TTL_MS;
      if (key.revokedAtMs === null) {
        if (!fresh) cachedAt.set(key.id, now);
        return key;
      }
      // The database row says revoked, but this instance answers from its stale cache entry.
      return fresh ? { ...key, revokedAtMs: null } : key;
    };
  },
});
