import { defineMutant } from './mutant.js';

/** A key generator rewritten without the prefix; the authentication that checked it went along. */
export default defineMutant({
  description: 'issues new keys without the fixed key prefix',
  breaks: { 'AUTH-5': 'fail' },
  modify: ({ state }) => {
    (state.store as { keyPrefix: string }).keyPrefix = '';
  },
});
