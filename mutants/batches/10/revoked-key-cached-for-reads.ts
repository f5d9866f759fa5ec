import { defineMutant } from '../../mutant.js';
import { beforeReference } from '../../support.js';

/** How long the gateway trusts a key it has verified for a read. */
const READ_CACHE_MS = 60_000;

/*
 * How this happens: to keep the hot read path off the key database, the gateway caches "this token
 * is valid" for 60 seconds after it verifies a key on a GET or HEAD; writes always go to the origin,
 * which checks the key afresh. Deleting a key marks its row revoked but never evicts the gateway's
 * entry, so a revoked key that was used for a read just before keeps reading for up to a minute,
 * while a POST with it is refused at once.
 */
export default defineMutant({
  description:
    'A deleted key that was used for a GET shortly before keeps working for GET and HEAD requests for up to a minute (a read-path cache of verified keys); writes with it are refused.',
  breaks: { 'KEY-5': 'fail' },
  collateral: ['AUTH-3', 'KEY-1', 'KEY-2'],
  modify: (reference) => {
    const { store } = reference.state;
    /** When each token was last verified on a read, by the server's clock. */
    const verified = new Map<string, number>();
    /** The token of the request now being authenticated, when that request is a read. */
    let reading: string | null = null;
    beforeReference(reference, (req) => {
      const bearer = /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '');
      reading = bearer && (req.method === 'GET' || req.method === 'HEAD') ? bearer[1]! : null;
    });
    const find = store.findKey.bind(store);
    store.findKey = (token) => {
      const key = find(token);
      if (!key || token !== reading) return key;
      const now = reference.state.now();
      const cachedAt = verified.get(token);
      const fresh = cachedAt !== undefined && now - cachedAt < READ_CACHE_MS;
      if (key.revokedAtMs === null) {
        if (!fresh) verified.set(token, now);
        return key;
      }
      // The cached verdict: the key as it was when cached, not revoked.
      return fresh ? Object.create(key, { revokedAtMs: { value: null, writable: true } }) : key;
    };
  },
});
