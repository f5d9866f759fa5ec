import { defineMutant } from '../../mutant.js';
import { beforeItem } from '../../support.js';

/*
 * How this happens: the key list queries `api_keys.where(account_id: current)`, but the delete
 * endpoint was added later with the repository's generic `apiKeys.findById(id)`, which has no
 * tenant filter, and then revokes what it found. Key ids are not secret (every list shows them),
 * so any account that learns another's key id can revoke that key.
 */
export default defineMutant({
  description: "Deleting an API key looks the id up across all accounts, so one account's key can revoke another account's key (204 instead of 404).",
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['KEY-5', 'KEY-6', 'ERR-9'],
  modify: (reference) => {
    const { store } = reference.state;
    beforeItem(reference, 'apiKey', 'DELETE', async (id, req, reply) => {
      if (req.account.keys.has(id)) return; // own key: the normal route
      for (const account of store.accounts) {
        const key = account.keys.get(id);
        if (key && key.revokedAtMs === null) {
          key.revokedAtMs = reference.state.now();
          return reply.code(204).send();
        }
      }
    });
  },
});
