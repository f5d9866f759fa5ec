import { arrayCollection, sendPage } from '../reference/routes/list.js';
import { defineMutant } from './mutant.js';
import { beforeHandler, pathOf } from './support.js';

/**
 * The submission list filtered by taxonomy alone is answered from a taxonomy index kept for the
 * whole deployment, not per account; the workspace filter and the unfiltered list still read the
 * account's own submissions. A filter × the other account: only a key filtering by a taxonomy of
 * the other account's submissions sees them.
 */
export default defineMutant({
  description: "the submission list filtered by taxonomy alone matches the submissions of every account under that taxonomy, the other account's included",
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['SUB-4'],
  modify: (reference) => {
    const { state } = reference;
    const list = state.profile.paths.submissionList;
    const filters = state.profile.submissions.listFilters ?? { workspace: 'workspace_id', taxonomy: 'taxonomy_id' };
    if (!list || !filters.taxonomy) return;
    beforeHandler(reference, async (req, reply) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || pathOf(req) !== list) return;
      const query = req.query as Record<string, unknown>;
      const taxonomy = query[filters.taxonomy!];
      if (taxonomy === undefined || (filters.workspace && query[filters.workspace] !== undefined)) return;
      const matching = state.store.accounts.flatMap((a) => a.submissions).filter((s) => s.taxonomy_id === taxonomy);
      return sendPage(state, req, reply, arrayCollection(matching));
    });
  },
});
