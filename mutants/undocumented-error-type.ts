import { defineMutant } from './mutant.js';
import { pathOf, rewriteJson } from './support.js';

/** A type name from an internal validation library leaks into the public envelope. */
export default defineMutant({
  description: 'types the 422 for an invalid submission "validation_error", a type the document does not have',
  breaks: { 'ERR-2': 'fail', 'SUB-2': 'fail' },
  modify: (reference) => {
    rewriteJson(reference, (body, req, reply) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || reply.statusCode !== 422 || !body?.error) return body;
      return { error: { ...body.error, type: 'validation_error' } };
    });
  },
});
