import { createHash } from 'node:crypto';
import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';
import type { ApiKeyRecord } from '../../../reference/store.js';

/*
 * How this happens: key lookups go through an in-memory auth cache (token hash -> key, ten-minute
 * TTL) so that every request does not hit the keys table. The delete handler was copied from the
 * "rotate my own key" endpoint, where the caller is the key being replaced, and it evicts the
 * cache entry of the token that made the request rather than the one of the key it deletes. A key
 * that deletes itself is revoked at once; a key deleted by another key of the account keeps
 * working from the cache until its entry expires, if it had been used before.
 */
const TTL_MS = 10 * 60 * 1000;

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

function tokenOf(header: string | undefined): string | null {
  const match = header === undefined ? null : /^bearer +(\S+)$/i.exec(header);
  return match ? match[1]! : null;
}

export default defineMutant({
  description:
    'Deleting a key with another key of the same account evicts the caller from the auth cache instead of the deleted key, so a deleted key that had been used keeps authenticating for ten minutes.',
  breaks: { 'KEY-5': 'fail' },
  collateral: ['AUTH-3'],
  modify: (reference) => {
    const { state } = reference;
    const cache = new Map<string, { key: ApiKeyRecord; cachedAtMs: number }>();
    const find = state.store.findKey.bind(state.store);
    state.store.findKey = (token) => {
      const hash = digest(token);
      const cached = cache.get(hash);
      if (cached && state.now() - cached.cachedAtMs < TTL_MS) {
        const key = cached.key;
        // The cached row, as it was when cached: not revoked; last use still written to the real row.
        return new Proxy(key, {
          get: (target, prop, receiver) => (prop === 'revokedAtMs' ? null : Reflect.get(target, prop, receiver)),
        });
      }
      cache.delete(hash);
      const key = find(token);
      if (key && key.revokedAtMs === null) cache.set(hash, { key, cachedAtMs: state.now() });
      return key;
    };
    const prefix = itemPrefix(state.profile.paths.apiKey);
    if (!prefix) return;
    reference.app.addHook('onResponse', async (req, reply) => {
      const path = pathOf(req);
      if (req.method !== 'DELETE' || !path.startsWith(prefix) || path.length === prefix.length || reply.statusCode >= 300) return;
      // The bug: the caller's token is evicted, not the deleted key's.
      const token = tokenOf(req.headers.authorization);
      if (token) cache.delete(digest(token));
    });
  },
});
