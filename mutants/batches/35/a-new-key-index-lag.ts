import { defineMutant } from '../../mutant.js';

/** How long the key table's hash index takes to show a new item (DynamoDB GSIs: about a second). */
const INDEX_LAG_MS = 1500;

/*
 * How this happens: the stateless Lambda handlers can no longer look keys up in process memory, so
 * keys move to a DynamoDB table keyed by key id, with a global secondary index on the key's hash
 * for the authorizer. Creation writes the item (and the key list, which queries the table by
 * account, shows it at once); authentication queries the GSI. GSI reads are always eventually
 * consistent, and a new item typically appears in the index a second or so after the write. A key
 * used within that time is unknown to the authorizer and gets 401 authentication_error; a moment
 * later it works. Humans copying a key from the creation response into their tool never hit the
 * window, and the 401 rate on the dashboard does not move.
 */
export default defineMutant({
  description:
    'Keys are authenticated through an eventually consistent index on the key hash, so a newly created key answers 401 for about one and a half seconds after its creation.',
  breaks: { 'KEY-2': 'warn' },
  collateral: ['KEY-1', 'KEY-7', 'RATE-6', 'RATE-8'],
  modify: (reference) => {
    const { state } = reference;
    const { store } = state;
    const createdAtMs = new Map<string, number>();
    const create = store.createKey.bind(store);
    store.createKey = (account, name) => {
      const created = create(account, name);
      createdAtMs.set(created.record.id, state.now());
      return created;
    };
    const find = store.findKey.bind(store);
    store.findKey = (token) => {
      const key = find(token);
      if (!key) return null;
      const created = createdAtMs.get(key.id);
      // Not yet in the index: the authorizer's query finds nothing.
      if (created !== undefined && state.now() - created < INDEX_LAG_MS) return null;
      return key;
    };
  },
});
