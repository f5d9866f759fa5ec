import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: `SELECT COUNT(*) FROM records WHERE account_id = $1` was the slowest query of
 * the records list, so the team replaced it with the planner's row estimate for the table
 * (`pg_class.reltuples`), "accurate enough for a total". It was checked on a staging database that
 * holds a single test account, where the estimate equals the account's count. In production the
 * table holds every account's records, so total_count is the size of the whole table, while the
 * pages (and has_more) still come from the account's own rows.
 */
export default defineMutant({
  description:
    "The records list reports total_count as the number of records across all accounts (a table-wide estimate) instead of the caller's own matching records.",
  breaks: { 'PAG-7': 'fail' },
  collateral: ['PAG-6', 'PAG-9'],
  modify: (reference) => {
    const { store } = reference.state;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || pathOf(req) !== '/api/v1/records' || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      let body: { total_count?: unknown };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (typeof body.total_count !== 'number') return payload;
      body.total_count = store.accounts.reduce((sum, account) => sum + account.data.records.count, 0);
      return JSON.stringify(body);
    });
  },
});
