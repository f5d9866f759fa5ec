import { defineMutant } from '../../mutant.js';
import { beforeItem } from '../../support.js';

/*
 * How this happens: the key deletion handler loads the key with the repository's plain
 * `apiKeys.findById(id)` and then runs the policy check `key.accountId === caller.accountId`,
 * whose failure the framework maps to 403 Forbidden. The tenant is enforced, so nothing is
 * deleted, but the answer differs from the one for a missing key: it tells a caller that the id
 * is a live key of some other account.
 */
export default defineMutant({
  description:
    "Deleting another account's live API key by its id answers 403 authorization_error (the ownership check runs after a global lookup) instead of 404 not_found_error; nothing is deleted.",
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['KEY-6', 'ERR-9'],
  modify: (reference) => {
    const { store } = reference.state;
    beforeItem(reference, 'apiKey', 'DELETE', async (id, req, reply) => {
      if (id.includes('/') || req.account.keys.has(id)) return; // the caller's own key: the normal route
      for (const account of store.accounts) {
        if (account === req.account) continue;
        const key = account.keys.get(id);
        // The repository's default scope hides deleted keys: those stay 404.
        if (key && key.revokedAtMs === null) {
          return reply.code(403).send({
            error: { type: 'authorization_error', code: 'forbidden', message: 'You are not allowed to delete this API key.', param: null, path: null },
          });
        }
      }
    });
  },
});
