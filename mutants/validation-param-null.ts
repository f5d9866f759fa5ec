import { defineMutant } from './mutant.js';
import { pathOf, rewriteJson } from './support.js';

/** The validator's field name is dropped on the way to the error envelope. */
export default defineMutant({
  description: 'sends param null on the 422 for an invalid submission value',
  breaks: { 'ERR-4': 'fail', 'SUB-2': 'fail' },
  modify: (reference) => {
    rewriteJson(reference, (body, req, reply) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || reply.statusCode !== 422 || !body?.error) return body;
      return { error: { ...body.error, param: null } };
    });
  },
});
