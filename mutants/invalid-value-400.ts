import { defineMutant } from './mutant.js';
import { pathOf, rewriteJson } from './support.js';

/** A validation layer that answers "Bad Request" for every refused submission, invalid or missing. */
export default defineMutant({
  description: 'answers 400 instead of 422 to a submission with a present but invalid value',
  breaks: { 'SUB-2': 'fail' },
  modify: (reference) => {
    rewriteJson(reference, (body, req, reply) => {
      if (req.method === 'POST' && pathOf(req) === '/api/v1/submissions' && reply.statusCode === 422) reply.code(400);
      return body;
    });
  },
});
