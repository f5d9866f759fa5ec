import { beforeItem } from '../mutants/support.js';
import { defineVariant } from './variant.js';

/** Key deletion answers 200 with a small confirmation body instead of 204. */
export default defineVariant({
  description: 'answers 200 {"id": …, "deleted": true} when a key is deleted; the key stops working at once',
  openPoint: 'key-operations',
  atRisk: ['KEY-5', 'KEY-6', 'GEN-1', 'GEN-5', 'AUTH-3'],
  modify: (reference) => {
    beforeItem(reference, 'apiKey', 'DELETE', async (id, req, reply) => {
      const key = req.account.keys.get(id);
      // Unknown or already deleted: the reference's own 404.
      if (!key || key.revokedAtMs !== null) return;
      key.revokedAtMs = reference.state.now();
      await reply.code(200).send({ id: key.id, deleted: true });
    });
  },
});
