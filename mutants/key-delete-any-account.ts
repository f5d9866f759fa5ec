import { defineMutant } from './mutant.js';
import { beforeItem } from './support.js';

/** Key deletion looks the id up across every account and forgets to check the owner. */
export default defineMutant({
  description: "lets a key delete another account's key by its id",
  breaks: { 'AUTH-6': 'fail' },
  modify: (reference) => {
    beforeItem(reference, 'apiKey', 'DELETE', async (id, req, reply) => {
      for (const account of reference.state.store.accounts) {
        const key = account.keys.get(id);
        if (key && key.revokedAtMs === null && account !== req.account) {
          key.revokedAtMs = reference.state.now();
          await reply.code(204).send();
          return;
        }
      }
    });
  },
});
