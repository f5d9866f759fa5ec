import type { ApiKeyRecord } from '../reference/store.js';
import { defineMutant } from './mutant.js';

/**
 * A cache of token → key in front of the hash lookup, keyed by the token in lower case (a cache
 * library's case-insensitive map, or a normalisation meant for the scheme): once a key has been
 * used, the same token with its letters' case changed finds it in the cache. Written blind, from
 * the API document, by someone who had not read the suite (batch 7).
 */
export default defineMutant({
  description: "once a key has been used, the same key with its letters' case changed authenticates too: a token cache keyed by the lower-cased token",
  breaks: { 'AUTH-3': 'fail' },
  modify: ({ state }) => {
    const { store } = state;
    const lookup = store.findKey.bind(store);
    const cache = new Map<string, ApiKeyRecord>();
    store.findKey = (token) => {
      const cached = cache.get(token.toLowerCase());
      if (cached) return cached;
      const found = lookup(token);
      if (found) cache.set(token.toLowerCase(), found);
      return found;
    };
  },
});
