import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: the unfiltered submission list runs its own paged query and answers an empty
 * page with `items: []`. When the workspace and taxonomy filters were added, the filtered branch
 * reused the repository's `findByWorkspaceOr404(...)`, written for the workspace detail screen,
 * where "no rows" meant "no such workspace" and raises NotFound. So a filtered request whose page
 * holds nothing is answered 404: a filter that matches no submission (a second workspace of the
 * account, another taxonomy), or a page past the end of a filtered list. Unfiltered lists, and
 * filtered pages that hold items, are unchanged, so every demo and every walk that stops at
 * `has_more: false` looks right.
 */
export default defineMutant({
  description:
    'On the submission list, a request with a workspace or taxonomy filter whose page holds no submission (a filter matching nothing, or a page past the end of a filtered list) is answered 404 not_found_error instead of 200 with empty items.',
  breaks: { 'SUB-4': 'fail' },
  collateral: ['PAG-7', 'PAG-9', 'ERR-9'],
  modify: (reference) => {
    const { paths, submissions } = reference.state.profile;
    const list = paths.submissionList;
    if (!list) return;
    // The same filter names the reference's list route reads.
    const filters = submissions.listFilters ?? { workspace: 'workspace_id', taxonomy: 'taxonomy_id' };
    reference.app.addHook('preHandler', async (req, reply) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || pathOf(req) !== list) return;
      const query = req.query as Record<string, unknown>;
      const workspace = filters.workspace ? query[filters.workspace] : undefined;
      const taxonomy = filters.taxonomy ? query[filters.taxonomy] : undefined;
      // Unfiltered: the list's own query, which is right.
      if (workspace === undefined && taxonomy === undefined) return;
      const { behaviour } = reference.state;
      const page = behaviour.parsePageParam(query.page, 'page');
      const limit = behaviour.parsePageParam(query.limit, 'limit');
      // A bad page or limit is still refused by the reference's own 422.
      if (!page.ok || !limit.ok) return;
      const matching = req.account.submissions.filter(
        (s) => (workspace === undefined || s.workspace_id === workspace) && (taxonomy === undefined || s.taxonomy_id === taxonomy),
      );
      const window = behaviour.pageWindow(matching.length, page.value, limit.value);
      if (window.end > window.start) return;
      return reply.code(404).send({
        error: { type: 'not_found_error', code: null, message: 'Submissions not found.', param: null, path: null },
      });
    });
  },
});
