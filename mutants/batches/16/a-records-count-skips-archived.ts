import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';
import { RECORD_STATUSES } from '../../../reference/data.js';

/*
 * How this happens: when archiving was introduced, the ORM's Record model got a default scope
 * `status != 'archived'` for the dashboard's counters. The records endpoint builds its page with
 * `Record.unscoped().findAll({ offset, limit })` (the API must keep listing archived records), but
 * total_count comes from a separate `Record.count({ where: { account_id } })`, which still goes
 * through the default scope. Archived records are listed and walked, but not counted.
 */
export default defineMutant({
  description:
    'On the records list, total_count leaves out records whose status is archived, although those records are returned in the pages (walking the list yields more items than total_count).',
  breaks: { 'PAG-7': 'fail' },
  collateral: [],
  modify: (reference) => {
    const archived = RECORD_STATUSES.indexOf('archived');
    const period = RECORD_STATUSES.length;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || pathOf(req) !== '/api/v1/records' || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      let body: { total_count?: unknown };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (typeof body.total_count !== 'number') return payload;
      // Records carry RECORD_STATUSES[index % period]: count the indices that are archived.
      const count = req.account.data.records.count;
      const archivedCount = count > archived ? Math.floor((count - 1 - archived) / period) + 1 : 0;
      body.total_count = Math.max(0, body.total_count - archivedCount);
      return JSON.stringify(body);
    });
  },
});
