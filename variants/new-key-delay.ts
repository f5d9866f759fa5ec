import { defineVariant } from './variant.js';

/** How long a new key takes to reach the authentication replicas. */
const PROPAGATION_MS = 2000;

/**
 * Keys are copied to the authentication replicas a moment after they are made: for its first
 * ~2 s a new key is unknown (401 authentication_error, like any unknown key), then it works. The
 * refused requests are not counted against the key's rate limit: the key is not known yet.
 */
export default defineVariant({
  description: 'a new key starts authenticating about 2 s after its creation (401 authentication_error before)',
  openPoint: 'key-propagation',
  atRisk: ['KEY-1', 'KEY-2', 'KEY-5', 'KEY-7', 'AUTH-3', 'AUTH-5', 'AUTH-6', 'RATE-3', 'RATE-5', 'RATE-6'],
  mayWarn: {
    'KEY-2': 'a new key takes about 2 s to propagate: its very first request is 401; KEY-1 allows 10 s, and the document states no delay',
  },
  // The rate-limit checks exhaust a key created for the purpose: they must see it start late.
  rateLimits: true,
  modify: ({ state }) => {
    // Keys made at boot (the configured ones) have long been copied everywhere.
    const bootedAt = state.now();
    const findKey = state.store.findKey.bind(state.store);
    state.store.findKey = (token) => {
      const key = findKey(token);
      if (!key) return null;
      const created = Date.parse(key.createdAt);
      return created > bootedAt && state.now() - created < PROPAGATION_MS ? null : key;
    };
  },
});
