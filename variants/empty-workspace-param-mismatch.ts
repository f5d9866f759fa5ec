import { invalidParam } from '../reference/errors.js';
import { defineVariant } from './variant.js';
import { onEmptySubmissionValue } from './support/submissions.js';

/**
 * The workspace query parameter (here named `workspace`, declared in the profile) is compared with
 * the body's workspace_id first: an empty one no longer matches it, and the 422 names the body's
 * "workspace_id", not the query parameter.
 */
export default defineVariant({
  description:
    'answers an empty workspace query parameter ("workspace") with 422 invalid_request_error naming the body\'s "workspace_id", which it no longer matches',
  openPoint: 'empty-values',
  atRisk: ['SUB-2', 'ERR-3', 'ERR-4', 'ERR-7'],
  // A query parameter named apart from the body member, so that naming one or the other differs.
  profile: (p) => ({ ...p, submissions: { ...p.submissions, workspaceQueryParam: 'workspace' } }),
  modify: (reference) => {
    onEmptySubmissionValue(reference, async ({ param, where }, _req, reply) =>
      where === 'query'
        ? invalidParam(reply, 'workspace_id', `workspace_id does not match the workspace in the query (${param} is empty).`, 'workspace_id', 'mismatch')
        : undefined,
    );
  },
});
