import { defineMutant } from './mutant.js';
import { beforeHandler } from './support.js';

/** Keys are copied to the authentication replicas a moment after they are made. */
export default defineMutant({
  description: 'rejects a new key with 401 for its first 1.5 seconds',
  breaks: { 'KEY-2': 'warn' },
  // The rate-limit suite starts on a fresh key: its first answers are 401 too.
  collateral: ['RATE-3', 'RATE-5'],
  modify: (reference) => {
    // Keys made at boot (the configured ones) have long been copied everywhere.
    const bootedAt = reference.state.now();
    beforeHandler(reference, async (req, reply) => {
      const created = req.apiKey ? Date.parse(req.apiKey.createdAt) : 0;
      if (created > bootedAt && reference.state.now() - created < 1500) {
        await reply
          .code(401)
          .send({ error: { type: 'authentication_error', code: null, message: 'The API key is invalid or has been revoked.', param: null, path: null } });
      }
    });
  },
});
