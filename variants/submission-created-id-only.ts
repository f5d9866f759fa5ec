import { rewriteJson, pathOf } from '../mutants/support.js';
import { defineVariant } from './variant.js';

/** Submission creation answers 201 with the new submission's id and nothing else. */
export default defineVariant({
  description: 'answers 201 {"id": …} when a submission is created',
  openPoint: 'submission-response',
  atRisk: ['SUB-1', 'SUB-4', 'SUB-5'],
  modify: (reference) => {
    rewriteJson(reference, (body, req, reply) =>
      req.method === 'POST' && pathOf(req) === '/api/v1/submissions' && reply.statusCode === 201 ? { id: body.id } : body,
    );
  },
});
