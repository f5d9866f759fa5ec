import { rewriteJson } from './support.js';
import { defineMutant } from './mutant.js';

/** A code of the vendor's own instead of the document's. */
export default defineMutant({
  description: 'a 429 carries code "too_many_requests" instead of "rate_limit_exceeded"',
  breaks: { 'RATE-3': 'fail' },
  modify: (reference) => {
    rewriteJson(reference, (body, _req, reply) => {
      if (reply.statusCode === 429 && body?.error) body.error.code = 'too_many_requests';
      return body;
    });
  },
});
