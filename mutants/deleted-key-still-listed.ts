import { defineMutant } from './mutant.js';

/** A soft delete: the key is revoked (it no longer authenticates) but the list query forgets to filter revoked rows. */
export default defineMutant({
  description: 'revokes a deleted key but keeps showing it in the key list',
  breaks: { 'KEY-6': 'warn' },
  modify: ({ behaviour }) => {
    behaviour.keyListed = () => true;
  },
});
