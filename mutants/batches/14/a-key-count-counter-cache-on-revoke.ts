import { defineMutant } from '../../mutant.js';
import { isEnvelope, pathOf, rewriteJson } from '../../support.js';

/*
 * How this happens: to spare a COUNT(*) per page, the key list reads total_count from an
 * `api_keys_count` counter-cache column on the account, kept by the ORM's after-create and
 * after-destroy callbacks. Deleting a key through the API is a soft delete (it sets `revoked_at`
 * so the row stays for the audit trail): an update, which fires neither callback. The count is right
 * until the first key is deleted and one too high for each deletion after that, while the items and
 * has_more (read with the `active` scope) are right.
 */
export default defineMutant({
  description:
    'The key list takes total_count from a counter incremented on key creation but never decremented on deletion (a soft delete), so after a key is deleted total_count exceeds the keys listed.',
  breaks: { 'PAG-7': 'fail' },
  collateral: ['KEY-6', 'PAG-6', 'PAG-9'],
  provokedBy: ['KEY'],
  modify: (reference) => {
    const list = reference.state.profile.paths.apiKeyList;
    if (!list) return;
    rewriteJson(reference, (body, req, reply) => {
      if (req.method !== 'GET' || pathOf(req) !== list || reply.statusCode !== 200 || !isEnvelope(body)) return body;
      // Every key the account ever had, revoked ones included (the store keeps them as soft-deleted rows).
      body.total_count = req.account.keys.size;
      return body;
    });
  },
});
