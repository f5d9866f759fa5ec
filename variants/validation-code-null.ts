import { rewriteJson } from '../mutants/support.js';
import { defineVariant } from './variant.js';

/** Validation errors carry no finer code: every 422 invalid_request_error has code null. */
export default defineVariant({
  description: 'answers every 422 invalid_request_error with code null',
  openPoint: 'error-codes',
  atRisk: ['ERR-1', 'ERR-4', 'PAG-3', 'PAG-4', 'PAG-5', 'PAG-9', 'PAG-10', 'SUB-2', 'SUB-3'],
  modify: (reference) => {
    rewriteJson(reference, (body, _req, reply) => {
      if (reply.statusCode !== 422 || body?.error?.type !== 'invalid_request_error') return body;
      return { ...body, error: { ...body.error, code: null } };
    });
  },
});
