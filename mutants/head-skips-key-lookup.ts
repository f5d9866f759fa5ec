import { defineMutant } from './mutant.js';
import { beforeReference } from './support.js';

/**
 * A caching gateway answers HEAD on its own rule: it checks that the Authorization header is a
 * well-formed Bearer token of the key prefix, and forwards the request with a service key of its
 * own, never looking the caller's key up. A credential state × the method: an unknown or revoked
 * key is refused on GET and served on HEAD.
 */
export default defineMutant({
  description:
    'a HEAD request with a well-formed Bearer token that is no live key (unknown or revoked) is served 200, as the gateway forwards it with its own service key',
  breaks: { 'AUTH-3': 'fail' },
  // A live key's HEAD is forwarded as the gateway's too: the other account's key reads the main account's items.
  collateral: ['KEY-5', 'AUTH-6'],
  modify: (reference) => {
    const { store, profile } = reference.state;
    const account = store.accounts[0]!;
    // The gateway's service key: a key of the deployment's account that no key list shows.
    const service = store.createKey(account, 'gateway cache probe');
    account.keys.delete(service.record.id);
    const wellFormed = new RegExp(`^Bearer ${profile.keyPrefix ?? 'sk_'}\\S+$`);
    beforeReference(reference, (req) => {
      if (req.method === 'HEAD' && wellFormed.test(req.headers.authorization ?? '')) req.headers.authorization = `Bearer ${service.secret}`;
    });
  },
});
