import { notFound } from '../reference/errors.js';
import { defineVariant } from './variant.js';
import { onEmptySubmissionValue } from './support/submissions.js';

/**
 * An empty id is a reference like any other, to nothing: an empty workspace query parameter, or
 * an empty workspace_id or taxonomy_id in the body, is 404 not_found_error (code null, param
 * null, as for any missing resource).
 */
export default defineVariant({
  description: 'answers an empty workspace_id, taxonomy_id or workspace query parameter as a reference to nothing: 404 not_found_error',
  openPoint: 'empty-values',
  atRisk: ['SUB-2', 'ERR-3', 'ERR-5', 'ERR-9'],
  modify: (reference) => {
    onEmptySubmissionValue(reference, async ({ param }, _req, reply) => notFound(reply, param.startsWith('taxonomy') ? 'Taxonomy' : 'Workspace'));
  },
});
