import { createHash } from 'node:crypto';
import { defineMutant } from '../../mutant.js';
import type { ApiKeyRecord } from '../../../reference/store.js';

/*
 * How this happens: to take the key lookup off the database, the auth middleware caches each
 * resolved key in an in-process map keyed by the SHA-256 of the bearer token (the only thing it has
 * before the lookup), and the cached entry carries the key's status as it was when cached. The
 * DELETE handler was given `authCache.delete(key.id)`, which never matches a token hash, so the
 * eviction is a no-op. The team's test created a key, deleted it and tried it: that key had never
 * been used, was never cached, and got its 401. A key that authenticated once before its deletion
 * keeps authenticating until the process restarts.
 */
export default defineMutant({
  description:
    'A deleted API key that had authenticated at least once before its deletion keeps working, because the auth cache (keyed by token hash) is never evicted on deletion.',
  breaks: { 'KEY-5': 'fail', 'AUTH-3': 'fail' },
  collateral: ['AUTH-8', 'KEY-6'],
  modify: (reference) => {
    const { store } = reference.state;
    const lookup = store.findKey.bind(store);
    /** Token hash -> the key as it stood when first resolved: active. */
    const authCache = new Map<string, ApiKeyRecord>();
    store.findKey = (token: string): ApiKeyRecord | null => {
      const tokenHash = createHash('sha256').update(token).digest('hex');
      const cached = authCache.get(tokenHash);
      if (cached) return cached;
      const key = lookup(token);
      if (key && key.revokedAtMs === null) {
        // The cached copy keeps the status it was cached with; other writes (last use) reach the key.
        authCache.set(tokenHash, new Proxy(key, { get: (target, prop, receiver) => (prop === 'revokedAtMs' ? null : Reflect.get(target, prop, receiver)) }));
      }
      return key;
    };
  },
});
