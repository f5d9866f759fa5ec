import { defineMutant } from './mutant.js';

/** A well-formed key the server cannot find is treated as "not allowed" rather than "not known". */
export default defineMutant({
  description: 'answers an unknown or revoked key with 403 authorization_error instead of 401',
  breaks: { 'AUTH-3': 'fail' },
  // The 403 for a revoked created key lacks the rate-limit headers an authenticated answer carries.
  collateral: ['KEY-5', 'RATE-1'],
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode !== 401 || typeof payload !== 'string' || !payload.includes('invalid or has been revoked')) return payload;
      reply.code(403);
      return payload.replace('"authentication_error"', '"authorization_error"');
    });
  },
});
