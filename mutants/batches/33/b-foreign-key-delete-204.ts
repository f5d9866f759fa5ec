import { defineMutant } from '../../mutant.js';
import { beforeItem } from '../../support.js';

/*
 * How this happens: the delete handler first loads the key with `ApiKey.findById(id)` (unscoped:
 * it only wants a record for the audit-log entry, and 404s when there is none), then revokes with
 * `UPDATE api_keys SET revoked_at = now() WHERE id = ? AND account_id = ?` and answers 204
 * without looking at the row count. For the caller's own keys this is right, and unknown or
 * already-deleted ids are 404. But a live key of another account passes the unscoped load, the
 * scoped update changes nothing, and the caller is told 204: the other account's key is not
 * revoked, yet its existence is confirmed and the delete claims success instead of 404.
 */
export default defineMutant({
  description:
    "Deleting another account's live API key by id answers 204 (without revoking it) instead of 404 not_found_error; own keys and unknown ids behave correctly.",
  breaks: { 'AUTH-6': 'fail' },
  collateral: [],
  modify: (reference) => {
    const { store } = reference.state;
    beforeItem(reference, 'apiKey', 'DELETE', async (id, req, reply) => {
      // The caller's own key (live or already deleted): the reference's handler.
      if (req.account.keys.has(id)) return;
      const liveElsewhere = store.accounts.some((account) => account !== req.account && account.keys.get(id)?.revokedAtMs === null);
      if (!liveElsewhere) return; // unknown id: the reference's 404
      return reply.code(204).send();
    });
  },
});
