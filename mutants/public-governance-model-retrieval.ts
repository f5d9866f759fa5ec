import { defineMutant } from './mutant.js';
import { beforeReference, itemPrefix } from './support.js';

/**
 * A gateway rule meant for a public catalogue lets governance model retrievals through without a
 * key, answering them as the account that owns the catalogue.
 */
export default defineMutant({
  description: 'answers a governance model retrieval without an Authorization header as if the owner had asked',
  breaks: { 'AUTH-1': 'fail' },
  modify: (reference) => {
    const prefix = itemPrefix(reference.state.profile.paths.governanceModel);
    if (!prefix) return;
    const owner = reference.state.store.accounts[0]!;
    const { secret } = reference.state.store.createKey(owner, 'catalogue gateway');
    beforeReference(reference, (req) => {
      if (req.headers.authorization === undefined && req.url?.startsWith(prefix)) req.headers.authorization = `Bearer ${secret}`;
    });
  },
});
