import { defineMutant } from '../../mutant.js';
import type { ApiKeyRecord } from '../../../reference/store.js';

/*
 * How this happens: hashing every request's key shows up in a profile, so a cache of verified keys
 * is put in front of the lookup. So as not to keep whole secrets in memory (heap dumps, crash
 * reports), the cache is keyed by the token's "lookup id": the prefix and the first sixteen
 * characters after it. A token whose head matches a key that has already authenticated is taken
 * for that key without its hash being compared: the key with its last characters changed, cut or
 * extended still works. Revocation is still honoured, since the cache holds the key's record.
 */
export default defineMutant({
  description:
    'Verified keys are cached by their first sixteen characters after the prefix, so once a key has authenticated any token sharing that head (last characters changed, cut or appended) authenticates as it.',
  breaks: { 'AUTH-3': 'fail' },
  collateral: ['AUTH-8', 'RATE-8'],
  modify: (reference) => {
    const { store } = reference.state;
    const lookup = store.findKey.bind(store);
    const verified = new Map<string, ApiKeyRecord>();
    const head = (token: string) => token.slice(0, store.keyPrefix.length + 16);
    store.findKey = (token) => {
      const cached = verified.get(head(token));
      if (cached) return cached;
      const found = lookup(token);
      if (found) verified.set(head(token), found);
      return found;
    };
  },
});
