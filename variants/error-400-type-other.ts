import { rewriteJson } from '../mutants/support.js';
import { defineVariant } from './variant.js';

/** Every 400 (a missing parameter among them) has the type "bad_request_error": the 400's type is not shown. */
export default defineVariant({
  description: 'answers every 400, a missing required parameter included, with type "bad_request_error"',
  openPoint: 'error-400-type',
  atRisk: ['ERR-2', 'ERR-3', 'ERR-7', 'KEY-8', 'SUB-2', 'GEN-4'],
  modify: (reference) => {
    rewriteJson(reference, (body, _req, reply) => {
      if (reply.statusCode !== 400 || typeof body?.error?.type !== 'string') return body;
      return { ...body, error: { ...body.error, type: 'bad_request_error' } };
    });
  },
});
