import { defineMutant } from './mutant.js';
import { beforeHandler, pathOf } from './support.js';

/** The list query reads only page and limit: workspace and taxonomy filters are dropped. */
export default defineMutant({
  description: 'ignores the workspace and taxonomy filters of the submission list',
  breaks: { 'SUB-4': 'fail' },
  modify: (reference) => {
    const list = reference.state.profile.paths.submissionList;
    const filters = reference.state.profile.submissions.listFilters;
    beforeHandler(reference, async (req) => {
      if (req.method !== 'GET' || pathOf(req) !== list || !filters) return;
      const query = req.query as Record<string, unknown>;
      for (const name of [filters.workspace, filters.taxonomy]) if (name) delete query[name];
    });
  },
});
