import { defineMutant } from '../../mutant.js';
import { isEnvelope, pathOf, rewriteJson } from '../../support.js';

/*
 * How this happens: keys are soft-deleted (a `revoked_at` column). The page query of the key list
 * got the `revoked_at IS NULL` filter when deletion shipped, but `total_count` comes from a
 * separate `SELECT COUNT(*) FROM api_keys WHERE account_id = ?` that nobody updated. The deleted
 * key does vanish from the items; only the count keeps counting it, so the envelope promises more
 * keys than any walk of the list ever yields.
 */
export default defineMutant({
  description:
    "The key list's total_count still counts the account's deleted keys, while its items and has_more leave them out: after a deletion, walking the list yields fewer keys than total_count.",
  breaks: { 'PAG-7': 'fail' },
  collateral: ['KEY-6'],
  modify: (reference) => {
    const list = reference.state.profile.paths.apiKeyList;
    if (!list) return;
    rewriteJson(reference, (body, req, reply) => {
      if (req.method !== 'GET' || reply.statusCode !== 200 || pathOf(req) !== list || !isEnvelope(body)) return body;
      body.total_count = req.account.keys.size; // every key the account ever had, deleted ones included
      return body;
    });
  },
});
