import { missingParam } from '../reference/errors.js';
import { beforeHandler, pathOf } from '../mutants/support.js';
import { defineVariant } from './variant.js';
import { onEmptySubmissionValue } from './support/submissions.js';

/**
 * An empty string is no value: an empty workspace_id or taxonomy_id in the body, or an empty
 * workspace query parameter, is a missing parameter (400 missing_param naming it), as if it had
 * been left out. An empty submission-list filter likewise filters nothing.
 */
export default defineVariant({
  description: 'reads an empty workspace_id, taxonomy_id or workspace query parameter as missing: 400 missing_param naming it',
  openPoint: 'empty-values',
  atRisk: ['SUB-2', 'ERR-3', 'ERR-7', 'SUB-4', 'PAG-7'],
  modify: (reference) => {
    onEmptySubmissionValue(reference, async ({ param, where }, _req, reply) => missingParam(reply, param, where === 'body' ? param : null));
    const list = reference.state.profile.paths.submissionList;
    const filters = reference.state.profile.submissions.listFilters;
    beforeHandler(reference, async (req) => {
      if (req.method !== 'GET' || pathOf(req) !== list || !filters) return;
      const query = req.query as Record<string, unknown>;
      for (const name of [filters.workspace, filters.taxonomy]) if (name && query[name] === '') delete query[name];
    });
  },
});
