import { rewriteJson, pathOf } from '../mutants/support.js';
import { defineVariant } from './variant.js';

/** Submission creation answers 201 with the whole submission, its rows echoed. */
export default defineVariant({
  description: 'answers 201 with the whole submission, the rows it was sent included, when a submission is created',
  openPoint: 'submission-response',
  atRisk: ['SUB-1', 'SUB-4', 'SUB-5', 'KEY-4'],
  modify: (reference) => {
    rewriteJson(reference, (body, req, reply) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || reply.statusCode !== 201) return body;
      const sent = req.body as { rows?: unknown };
      return { ...body, status: 'received', rows: sent.rows ?? [] };
    });
  },
});
