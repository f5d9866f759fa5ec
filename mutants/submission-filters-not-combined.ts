import { defineMutant } from './mutant.js';
import { beforeHandler, pathOf } from './support.js';

/** The list query takes one filter, the workspace first: given both, the taxonomy is dropped. */
export default defineMutant({
  description: 'applies only the workspace filter of the submission list when the workspace and taxonomy filters are given together',
  breaks: { 'SUB-4': 'fail' },
  modify: (reference) => {
    const list = reference.state.profile.paths.submissionList;
    const filters = reference.state.profile.submissions.listFilters;
    beforeHandler(reference, async (req) => {
      if (req.method !== 'GET' || pathOf(req) !== list || !filters?.workspace || !filters.taxonomy) return;
      const query = req.query as Record<string, unknown>;
      if (query[filters.workspace] !== undefined) delete query[filters.taxonomy];
    });
  },
});
