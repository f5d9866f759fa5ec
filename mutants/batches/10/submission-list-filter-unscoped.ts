import { defineMutant } from '../../mutant.js';
import { beforeHandler, pathOf } from '../../support.js';
import { arrayCollection, sendPage } from '../../../reference/routes/list.js';

/*
 * How this happens: the unfiltered submission list reads `account.submissions`, but a filtered
 * list was made fast by querying the submissions index keyed by workspace and taxonomy, and that
 * index is global, not partitioned by account: the handler assumed a workspace id in the query had
 * already been checked to be the caller's. Filtering by another account's workspace (or taxonomy)
 * id lists that account's submissions.
 */
export default defineMutant({
  description:
    "The submission list, when filtered by workspace or taxonomy, matches submissions of every account, so filtering by another account's workspace id lists that account's submissions.",
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['SUB-4'],
  modify: (reference) => {
    const { state } = reference;
    const list = state.profile.paths.submissionList;
    const filters = state.profile.submissions.listFilters ?? { workspace: 'workspace_id', taxonomy: 'taxonomy_id' };
    if (!list) return;
    beforeHandler(reference, async (req, reply) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || pathOf(req) !== list) return;
      const query = req.query as Record<string, unknown>;
      const workspace = filters.workspace ? query[filters.workspace] : undefined;
      const taxonomy = filters.taxonomy ? query[filters.taxonomy] : undefined;
      if (workspace === undefined && taxonomy === undefined) return; // the account's own relation
      const matching = state.store.accounts
        .flatMap((a) => a.submissions)
        .filter((s) => (workspace === undefined || s.workspace_id === workspace) && (taxonomy === undefined || s.taxonomy_id === taxonomy));
      return sendPage(state, req, reply, arrayCollection(matching));
    });
  },
});
