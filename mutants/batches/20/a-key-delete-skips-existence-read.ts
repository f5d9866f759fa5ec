import { defineMutant } from '../../mutant.js';
import { beforeItem } from '../../support.js';

/*
 * How this happens: key deletion used to read the key, check it, then update it: two round trips.
 * A latency pass collapses it into one `UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND
 * account_id = $2 AND revoked_at IS NULL` and answers 204 without looking at the affected-row
 * count ("DELETE is idempotent anyway"). Live keys are still revoked at once, but deleting a key
 * that is already deleted, or that never existed, now also answers 204 instead of 404.
 */
export default defineMutant({
  description: 'Deleting an API key answers 204 whether or not a live key with that id exists, so deleting an already deleted key is 204 instead of 404.',
  breaks: { 'KEY-6': 'warn' },
  collateral: ['ERR-9', 'AUTH-6'],
  modify: (reference) => {
    beforeItem(reference, 'apiKey', 'DELETE', async (id, req, reply) => {
      if (id.includes('/')) return;
      const key = req.account.keys.get(id);
      if (key && key.revokedAtMs === null) return; // a live key: the reference revokes it
      return reply.code(204).send();
    });
  },
});
