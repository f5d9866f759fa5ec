import { defineMutant } from './mutant.js';
import { beforeHandler } from './support.js';

/**
 * The key's last use written in a transaction that holds the key's row a few milliseconds: a
 * second request of the same key meanwhile fails its transaction (a serialization failure) and
 * is answered 500, though it asked for nothing wrong (API document, Errors: api_error is for
 * unexpected faults).
 */
export default defineMutant({
  description: 'a request of a key while another of the same key is being answered fails with a 500 (the last-use write conflicts)',
  breaks: { 'GEN-3': 'warn' },
  // Any check whose requests of one key overlap meets the 500: a malformed body's 4xx among them.
  collateral: ['GEN-4'],
  modify: (reference) => {
    const busy = new Set<string>();
    beforeHandler(reference, async (req, reply) => {
      const key = req.apiKey?.id;
      if (!key) return;
      if (busy.has(key)) {
        return reply
          .code(500)
          .send({ error: { type: 'api_error', code: null, message: 'Could not serialize access due to concurrent update.', param: null, path: null } });
      }
      busy.add(key);
      await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
      busy.delete(key);
    });
  },
});

/** How long the transaction holds the key's row. */
const HOLD_MS = 5;
