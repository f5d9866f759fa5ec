import { defineMutant } from '../../mutant.js';
import { beforeReference } from '../../support.js';

/*
 * How this happens: a prefix rename for new keys (so that secret scanners could tell new keys from
 * leaked old ones) was rolled out in two parts: the key issuer emits the new prefix, and the
 * gateway translates the new prefix back to the old one before the auth service hashes the token.
 * The auth service's own change broke sign-in for a large customer, so it was rolled back in a
 * hurry; the issuer and the gateway translation were left as they were, since everything "worked".
 * Keys created through the API now start with the renamed prefix, not the documented one, although
 * they still authenticate. Keys issued before the rename keep the documented prefix.
 */
export default defineMutant({
  description:
    'Keys created through the API are issued under a renamed prefix (the first letter of the documented prefix changed, e.g. rk_ for sk_), which the gateway maps back so that they still authenticate.',
  breaks: { 'AUTH-5': 'fail' },
  collateral: ['AUTH-2', 'AUTH-3', 'AUTH-8', 'ERR-1'],
  provokedBy: ['KEY'],
  modify: (reference) => {
    const { store } = reference.state;
    const documented = store.keyPrefix;
    if (documented === '') return;
    const renamed = `${documented.startsWith('r') ? 'x' : 'r'}${documented.slice(1)}`;
    const create = store.createKey.bind(store);
    store.createKey = (account, name) => {
      const created = create(account, name);
      return { record: created.record, secret: `${renamed}${created.secret.slice(documented.length)}` };
    };
    beforeReference(reference, (req) => {
      const header = req.headers.authorization;
      if (typeof header !== 'string') return;
      const match = /^(bearer +)(\S+)$/i.exec(header);
      if (!match) return;
      const token = match[2]!;
      if (!token.startsWith(renamed)) return;
      req.headers.authorization = `${match[1]!}${documented}${token.slice(renamed.length)}`;
    });
  },
});
