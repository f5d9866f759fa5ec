import { errorBody } from '../../../reference/errors.js';
import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

const LOOKED_UP: Record<string, string> = { workspace_id: 'Workspace', taxonomy_id: 'Taxonomy' };

/*
 * How this happens: a refactor moved the body's workspace_id and taxonomy_id onto the ORM's
 * `findOrFail(id)`, and the explicit `typeof value === 'string'` checks were deleted as redundant
 * ("the lookup validates it"). findOrFail throws its NotFound for anything it cannot find, so a
 * number, a boolean, null, an object or an empty string in those members now comes back as
 * 404 not_found_error with no param, instead of 422 invalid_request_error naming the member.
 * Faults in the query parameter and in rows keep their 400/422 answers.
 */
export default defineMutant({
  description:
    'A body workspace_id or taxonomy_id of the wrong JSON type (number, boolean, null, object) or unknown is answered 404 not_found_error (param null) instead of 422 invalid_request_error naming it.',
  breaks: { 'SUB-2': 'fail' },
  collateral: ['SUB-3', 'ERR-3'],
  modify: (reference) => {
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || reply.statusCode !== 422 || typeof payload !== 'string') return payload;
      let body: { error?: { code?: unknown; param?: unknown; path?: unknown } };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      const error = body.error;
      if (!error || typeof error.param !== 'string' || error.path !== error.param) return payload; // the query parameter's faults have no path
      const what = LOOKED_UP[error.param];
      if (!what || (error.code !== 'invalid_value' && error.code !== 'unknown_id')) return payload; // a mismatch with the query stays 422
      reply.code(404);
      return JSON.stringify(errorBody('not_found_error', `${what} not found.`));
    });
  },
});
