import { defineMutant } from './mutant.js';

/**
 * The token is bound to a fixed-width column of the keys' length (CHAR(n) under a database in
 * non-strict mode): what passes that length is cut off silently before the lookup, so a live key
 * with characters added authenticates.
 */
export default defineMutant({
  description: 'a live key with characters added at the end authenticates: the token is cut to the width of the key column before the lookup',
  breaks: { 'AUTH-3': 'fail' },
  modify: ({ state }) => {
    const { store } = state;
    const lookup = store.findKey.bind(store);
    let width: number | null = null;
    store.findKey = (token) => {
      const found = lookup(width === null ? token : token.slice(0, width));
      if (found && width === null) width = token.length;
      return found;
    };
  },
});
