import { defineMutant } from '../../mutant.js';
import { beforeHandler, pathOf } from '../../support.js';

/*
 * How this happens: the submission list reads its items from a search index that an indexer
 * fills asynchronously from the write queue, some fifteen seconds behind, while total_count (and
 * so has_more) comes from a COUNT(*) on the primary database, which sees a submission the moment
 * its 201 is sent. Right after a write the envelope counts a submission that no page holds yet;
 * read a little later, the list is consistent again.
 */
const INDEX_LAG_MS = 15_000;

export default defineMutant({
  description:
    'The submission list counts new submissions at once but serves its items from an index about 15 s behind: right after a creation, total_count includes submissions no page contains.',
  breaks: { 'SUB-4': 'fail', 'PAG-7': 'fail' },
  collateral: ['PAG-6', 'PAG-8'],
  modify: (reference) => {
    const { state } = reference;
    const list = state.profile.paths.submissionList;
    if (!list) return;
    const filters = state.profile.submissions.listFilters ?? { workspace: 'workspace_id', taxonomy: 'taxonomy_id' };
    beforeHandler(reference, async (req, reply) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || pathOf(req) !== list) return;
      const query = req.query as Record<string, unknown>;
      const page = state.behaviour.parsePageParam(query.page, 'page');
      const limit = state.behaviour.parsePageParam(query.limit, 'limit');
      if (!page.ok || !limit.ok) return; // the reference's own 422
      const workspace = filters.workspace ? query[filters.workspace] : undefined;
      const taxonomy = filters.taxonomy ? query[filters.taxonomy] : undefined;
      const matches = (s: { workspace_id: string; taxonomy_id: string }) =>
        (workspace === undefined || s.workspace_id === workspace) && (taxonomy === undefined || s.taxonomy_id === taxonomy);
      // The primary database: counts every submission at once.
      const counted = req.account.submissions.filter(matches);
      // The search index: only what the indexer has caught up with.
      const indexedBefore = state.now() - INDEX_LAG_MS;
      const indexed = counted.filter((s) => Date.parse(s.created_at) <= indexedBefore);
      const window = state.behaviour.pageWindow(counted.length, page.value, limit.value);
      const items = indexed.slice(window.start, window.end);
      return reply.code(200).send({ items, has_more: window.hasMore, total_count: counted.length });
    });
  },
});
