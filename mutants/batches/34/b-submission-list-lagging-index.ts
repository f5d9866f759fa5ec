import { defineMutant } from '../../mutant.js';
import { isEnvelope, pathOf } from '../../support.js';
import type { Submission } from '../../../reference/store.js';

/** How often the indexer job drains the submission.created events into the search index. */
const INDEXER_PERIOD_MS = 30_000;

/*
 * How this happens: the submission list moved to the search index (filters on workspace and
 * taxonomy are cheap there), fed by `submission.created` events that an indexer job drains every
 * 30 seconds. The page's items come from the index; `total_count` (and so `has_more`) kept coming
 * from the primary database's COUNT(*) with the same filters, because the index's hit count was
 * "approximate" in the first version and someone switched it back. In staging, with submissions
 * created minutes before anyone listed them, both agreed. Right after a submission is created the
 * count includes it and the pages do not: page 1 holds fewer items than `total_count` says while
 * `has_more` is false, or pages that `has_more` promises come back empty, until the job next runs.
 */
export default defineMutant({
  description:
    'The submission list now reads its items from a search index refreshed every 30 seconds while total_count and has_more still come from the database, so submissions created since the last refresh are counted but listed nowhere.',
  breaks: { 'SUB-4': 'fail', 'PAG-7': 'fail', 'PAG-8': 'warn' },
  collateral: ['PAG-6'],
  provokedBy: ['SUB'],
  modify: (reference) => {
    const { app, state } = reference;
    const listPath = state.profile.paths.submissionList;
    if (!listPath) return;
    const filters = state.profile.submissions.listFilters ?? { workspace: 'workspace_id', taxonomy: 'taxonomy_id' };
    /** Account id -> how many of its submissions (append-only, in order) the index holds. */
    const indexed = new Map<string, number>();
    let lastRun = state.now();
    const runIndexer = (now: number) => {
      for (const account of state.store.accounts) indexed.set(account.id, account.submissions.length);
      lastRun = now;
    };
    runIndexer(lastRun);
    // The job, run lazily on the first request after its period has passed.
    app.addHook('onRequest', async () => {
      const now = state.now();
      if (now - lastRun >= INDEXER_PERIOD_MS) runIndexer(now);
    });
    app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string' || !req.account || pathOf(req) !== listPath) return payload;
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (!isEnvelope(body)) return payload;
      const query = req.query as Record<string, unknown>;
      const page = state.behaviour.parsePageParam(query.page, 'page');
      const limit = state.behaviour.parsePageParam(query.limit, 'limit');
      if (!page.ok || !limit.ok) return payload;
      const workspace = filters.workspace ? query[filters.workspace] : undefined;
      const taxonomy = filters.taxonomy ? query[filters.taxonomy] : undefined;
      const hits: Submission[] = req.account.submissions
        .slice(0, indexed.get(req.account.id) ?? 0)
        .filter((s) => (workspace === undefined || s.workspace_id === workspace) && (taxonomy === undefined || s.taxonomy_id === taxonomy));
      const window = state.behaviour.pageWindow(hits.length, page.value, limit.value);
      // Items from the index; has_more and total_count as the database computed them.
      return JSON.stringify({ ...body, items: hits.slice(window.start, window.end) });
    });
  },
});
