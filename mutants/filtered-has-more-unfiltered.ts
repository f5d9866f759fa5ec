import { defineMutant } from './mutant.js';
import { isEnvelope, pathOf, rewriteJson } from './support.js';

/**
 * has_more is computed from the count of the unfiltered collection (the count query without its
 * WHERE clause), while items and total_count follow the filters.
 */
export default defineMutant({
  description: 'says has_more of a filtered submission list page as if the list were unfiltered',
  breaks: { 'PAG-6': 'fail' },
  collateral: ['SUB-4'],
  modify: (reference) => {
    const { submissionList: list } = reference.state.profile.paths;
    const filters = reference.state.profile.submissions.listFilters;
    rewriteJson(reference, (body, req) => {
      if (req.method !== 'GET' || pathOf(req) !== list || !isEnvelope(body) || !filters) return body;
      const query = req.query as Record<string, string | undefined>;
      const filtered = [filters.workspace, filters.taxonomy].some((name) => name && query[name] !== undefined);
      if (!filtered) return body;
      const page = Number(query.page ?? 1);
      const limit = Number(query.limit ?? 100);
      return { ...body, has_more: page * limit < req.account.submissions.length };
    });
  },
});
