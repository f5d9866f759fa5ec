import { defineMutant } from '../../mutant.js';

/*
 * How this happens: to take load off the primary, the authentication middleware was pointed at the
 * read-replica pool, with the usual "not found on the replica, retry on the primary" fallback so
 * that a key created a moment ago still works. Deleting a key is a soft delete
 * (`UPDATE api_keys SET deleted_at = now()`) on the primary; until that UPDATE has replicated, the
 * replica still holds the row as live, the lookup finds it, and no fallback happens. For a couple
 * of seconds after the DELETE answers 204, the revoked key keeps authenticating. The key list and
 * the DELETE itself read the primary, so the key vanishes from the list and a second delete is 404.
 */
export default defineMutant({
  description:
    'Authentication reads API keys from a lagging read replica, so a key deleted (soft-deleted on the primary) keeps authenticating for about 2.5 s after the DELETE answered.',
  breaks: { 'KEY-5': 'fail' },
  collateral: ['AUTH-3', 'AUTH-8'],
  modify: (reference) => {
    // The replica's lag behind the primary under the run's write load.
    reference.behaviour.revokedGraceMs = 2500;
  },
});
