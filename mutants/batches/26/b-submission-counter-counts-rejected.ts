import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';
import type { Account } from '../../../reference/store.js';

/*
 * How this happens: with accounts sharded across databases, COUNT(*) over an account's
 * submissions became a cross-shard query, so the unfiltered submission list now reads total_count
 * from a denormalised `submission_count` column in the account directory database. The create
 * handler resolves the workspace from the query and bumps that counter first ("reserve the
 * submission"), then validates the body and inserts on the account's shard. A body that fails
 * validation (400 missing field, 422 bad rows) rolls back the shard transaction, but the counter
 * lives in another database and is never decremented. Filtered lists still COUNT(*) on the shard,
 * and the team's happy-path tests never send a rejected submission before listing, so the counts
 * agree in every test they run.
 */
export default defineMutant({
  description:
    'The unfiltered submission list takes total_count from a per-account counter that is bumped before the body is validated, so every submission rejected with 400/422 (with a valid workspace in the query) inflates total_count for good.',
  breaks: { 'SUB-4': 'fail', 'PAG-7': 'fail' },
  collateral: ['PAG-9'],
  provokedBy: ['ERR'],
  modify: (reference) => {
    const { profile } = reference.state;
    const list = profile.paths.submissionList;
    if (!list) return;
    const queryParam = profile.submissions.workspaceQueryParam ?? 'workspace_id';
    const filters = profile.submissions.listFilters ?? { workspace: 'workspace_id', taxonomy: 'taxonomy_id' };
    const filterNames = [filters.workspace, filters.taxonomy].filter((f): f is string => !!f);
    const phantom = new WeakMap<Account, number>();
    reference.app.addHook('onSend', async (req, reply, payload) => {
      const account = req.account as Account | undefined;
      if (!account) return payload;
      const path = pathOf(req);
      if (req.method === 'POST' && path === '/api/v1/submissions') {
        if (reply.statusCode !== 400 && reply.statusCode !== 422) return payload;
        const workspace = (req.query as Record<string, unknown>)[queryParam];
        // The counter is bumped once the query's workspace resolves, before the body is read.
        if (account.data.workspaces.some((w) => w.id === workspace)) phantom.set(account, (phantom.get(account) ?? 0) + 1);
        return payload;
      }
      if (req.method !== 'GET' || path !== list || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const extra = phantom.get(account) ?? 0;
      const query = req.query as Record<string, unknown>;
      if (extra === 0 || filterNames.some((f) => query[f] !== undefined)) return payload;
      let body: { total_count?: unknown };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (typeof body.total_count !== 'number') return payload;
      body.total_count = body.total_count + extra;
      return JSON.stringify(body);
    });
  },
});
