import { defineMutant } from './mutant.js';

/**
 * A hand-written constant-time comparison that loops over the presented token's length, not the
 * stored key's: a token that is the start of a live key (its last characters cut) matches it. The
 * candidate comes from an index range scan on the token (`WHERE token >= ? ORDER BY token LIMIT 1`).
 */
export default defineMutant({
  description: 'a live key with its last characters cut authenticates: the comparison stops at the end of the presented token',
  breaks: { 'AUTH-3': 'fail' },
  modify: ({ state }) => {
    const { store } = state;
    const lookup = store.findKey.bind(store);
    // The tokens seen to match, standing for the index the range scan reads.
    const seen = new Set<string>();
    store.findKey = (token) => {
      const found = lookup(token);
      if (found) {
        seen.add(token);
        return found;
      }
      const candidate = [...seen].sort().find((stored) => stored >= token);
      return candidate !== undefined && token.length >= 16 && candidate.startsWith(token) ? lookup(candidate) : null;
    };
  },
});
