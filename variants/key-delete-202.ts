import { beforeItem } from '../mutants/support.js';
import { defineVariant } from './variant.js';

/**
 * Key deletion answers 202 Accepted with a JSON body (the clean-up of the key's records goes on in
 * the background), but the key itself is revoked at once, as the document requires.
 */
export default defineVariant({
  description: 'answers 202 {"id": …, "status": "revoked"} when a key is deleted; the key stops working immediately',
  openPoint: 'key-operations',
  atRisk: ['KEY-5', 'KEY-6', 'GEN-1', 'GEN-5', 'AUTH-3'],
  modify: (reference) => {
    beforeItem(reference, 'apiKey', 'DELETE', async (id, req, reply) => {
      const key = req.account.keys.get(id);
      if (!key || key.revokedAtMs !== null) return;
      key.revokedAtMs = reference.state.now();
      await reply.code(202).send({ id: key.id, status: 'revoked', revoked_at: new Date(key.revokedAtMs).toISOString() });
    });
  },
});
