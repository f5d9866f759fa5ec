import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: the list endpoint runs two queries, one for the page of items and one
 * `SELECT COUNT(*) FROM submissions WHERE account_id = ?` for total_count. The workspace and
 * taxonomy filters were added to the items query builder only; the count query was copied from
 * the unfiltered list and never updated.
 */
export default defineMutant({
  description: 'On the submission list, total_count ignores the workspace and taxonomy filters and counts every submission of the account.',
  breaks: { 'SUB-4': 'fail' },
  collateral: ['PAG-7', 'PAG-9'],
  modify: (reference) => {
    const { paths, submissions } = reference.state.profile;
    const list = paths.submissionList;
    if (!list) return;
    const filters = [submissions.listFilters?.workspace, submissions.listFilters?.taxonomy].filter((f): f is string => !!f);
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || pathOf(req) !== list || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const query = req.query as Record<string, unknown>;
      if (!filters.some((f) => query[f] !== undefined)) return payload;
      let body: { total_count?: unknown };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (typeof body.total_count !== 'number') return payload;
      body.total_count = req.account.submissions.length;
      return JSON.stringify(body);
    });
  },
});
