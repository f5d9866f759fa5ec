import type { FastifyRequest } from 'fastify';
import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';
import type { Account } from '../../../reference/store.js';

/*
 * How this happens: the plan's submission quota is enforced by a middleware that reserves a slot
 * (`UPDATE accounts SET submission_count = submission_count + 1`) before the controller validates
 * the request; the controller's 422 path calls `releaseQuota()`, but the 400 answers for a missing
 * required parameter come from the shared `requireParams()` guard, which returns early without
 * releasing. Because COUNT(*) over a large submissions table was slow, the unfiltered submission
 * list reads its total_count from that same counter column; filtered lists still count with a
 * WHERE clause. The counter drifts up by one for every 400 submission, and only the unfiltered
 * list shows it.
 */
export default defineMutant({
  description:
    'After a submission is refused with 400 (missing required parameter), the unfiltered submission list reports a total_count one higher per refusal than the submissions it actually lists.',
  breaks: { 'SUB-4': 'fail', 'PAG-7': 'fail' },
  collateral: ['PAG-9'],
  provokedBy: ['ERR'],
  modify: (reference) => {
    const { paths, submissions } = reference.state.profile;
    const list = paths.submissionList;
    if (!list) return;
    const filters = submissions.listFilters ?? { workspace: 'workspace_id', taxonomy: 'taxonomy_id' };
    const filterNames = [filters.workspace, filters.taxonomy].filter((f): f is string => !!f);
    const reserved = new WeakSet<FastifyRequest>();
    const drift = new WeakMap<Account, number>();
    reference.app.addHook('preHandler', async (req) => {
      if (req.method === 'POST' && pathOf(req) === '/api/v1/submissions' && req.account) reserved.add(req);
    });
    reference.app.addHook('onSend', async (req, reply, payload) => {
      const path = pathOf(req);
      if (req.method === 'POST' && path === '/api/v1/submissions') {
        if (reply.statusCode === 400 && reserved.has(req)) drift.set(req.account, (drift.get(req.account) ?? 0) + 1);
        return payload;
      }
      if (req.method !== 'GET' || path !== list || reply.statusCode !== 200 || typeof payload !== 'string' || !req.account) return payload;
      const query = req.query as Record<string, unknown>;
      if (filterNames.some((f) => query[f] !== undefined)) return payload;
      const extra = drift.get(req.account) ?? 0;
      if (extra === 0) return payload;
      let body: { total_count?: unknown };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      const total = body.total_count;
      if (typeof total !== 'number') return payload;
      body.total_count = total + extra;
      return JSON.stringify(body);
    });
  },
});
