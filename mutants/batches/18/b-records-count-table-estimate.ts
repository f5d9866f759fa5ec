import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: `SELECT COUNT(*) FROM records WHERE account_id = ?` took seconds on the big
 * records table, so the records list switched to the planner's row estimate
 * (`SELECT reltuples FROM pg_class WHERE relname = 'records'`), a well-known trick for counting
 * large tables fast. The estimate is the size of the whole table, every account's records
 * together. Pages and has_more are unaffected (they come from a limit + 1 look-ahead query), so
 * every page looks right; only total_count is too big.
 */
export default defineMutant({
  description:
    "The records list's total_count is the number of records of all accounts together (a table-wide estimate), not the number of the caller's records; items and has_more are correct.",
  breaks: { 'PAG-7': 'fail' },
  collateral: ['PAG-6', 'PAG-8', 'PAG-9', 'AUTH-6'],
  modify: (reference) => {
    const { store } = reference.state;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || pathOf(req) !== '/api/v1/records' || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const estimate = store.accounts.reduce((sum, account) => sum + account.data.records.count, 0);
      return payload.replace(/"total_count":\d+}$/, `"total_count":${estimate}}`);
    });
  },
});
