import { rewriteJson } from './support.js';
import { defineMutant } from './mutant.js';

/** The throttle answers with the generic server error type. */
export default defineMutant({
  description: 'a 429 carries type "api_error" instead of "rate_limit_error"',
  breaks: { 'RATE-3': 'fail', 'RATE-7': 'fail', 'ERR-2': 'fail' },
  modify: (reference) => {
    rewriteJson(reference, (body, _req, reply) => {
      if (reply.statusCode === 429 && body?.error) body.error.type = 'api_error';
      return body;
    });
  },
});
