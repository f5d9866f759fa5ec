import { defineMutant } from './mutant.js';
import { rewriteJson } from './support.js';

/** A workspace id still reserved after deletion: reading it reports a conflict instead of not-found. */
export default defineMutant({
  description: 'answers 409 conflict_error to a GET of a workspace that does not exist',
  breaks: { 'ERR-6': 'fail', 'ERR-5': 'fail' },
  collateral: ['ERR-9', 'AUTH-6'],
  modify: (reference) => {
    rewriteJson(reference, (body, req, reply) => {
      if (req.method !== 'GET' || reply.statusCode !== 404 || body?.error?.message !== 'Workspace not found.') return body;
      reply.code(409);
      return { error: { type: 'conflict_error', code: 'workspace_reserved', message: 'The workspace id is reserved.', param: null, path: null } };
    });
  },
});
