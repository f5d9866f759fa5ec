import { defineMutant } from './mutant.js';
import { rewriteJson } from './support.js';

/** Copied from another API: every rejected key carries a finer code. */
export default defineMutant({
  description: 'gives the 401 for an unknown or revoked key the code "invalid_api_key"',
  breaks: { 'AUTH-8': 'warn' },
  modify: (reference) => {
    rewriteJson(reference, (body, _req, reply) => {
      if (reply.statusCode === 401 && body?.error && 'code' in body.error) body.error.code = 'invalid_api_key';
      return body;
    });
  },
});
