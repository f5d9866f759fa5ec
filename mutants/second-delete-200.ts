import { defineMutant } from './mutant.js';
import { beforeItem } from './support.js';

/** Deletion is made "idempotent": deleting a key that is already gone answers 200 too. */
export default defineMutant({
  description: 'answers 200 when a key that was already deleted is deleted again',
  breaks: { 'KEY-6': 'warn' },
  modify: (reference) => {
    beforeItem(reference, 'apiKey', 'DELETE', async (id, req, reply) => {
      const key = req.account.keys.get(id);
      if (key && key.revokedAtMs !== null) await reply.code(200).send({ id: key.id, deleted: true });
    });
  },
});
