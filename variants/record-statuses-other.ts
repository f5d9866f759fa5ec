import { defineVariant } from './variant.js';

/** Records use another set of states (the set is not shown): "open", "in_progress", "closed". */
const RENAMED: Record<string, string> = { draft: 'open', submitted: 'in_progress', approved: 'closed', rejected: 'closed', archived: 'closed' };

export default defineVariant({
  description: 'gives records the statuses "open", "in_progress" and "closed"',
  openPoint: 'record-states',
  atRisk: ['RES-3', 'RES-4', 'RES-7', 'PAG-8'],
  modify: ({ state }) => {
    for (const account of state.store.accounts) {
      const records = account.data.records;
      const at = records.at.bind(records);
      const sliceJson = records.sliceJson.bind(records);
      records.at = (index) => {
        const record = at(index);
        return { ...record, status: RENAMED[record.status] ?? record.status };
      };
      records.slice = (start, end) => {
        const out = [];
        for (let i = start; i < Math.min(end, records.count); i++) out.push(records.at(i));
        return out;
      };
      // The records' data has no "status" member: only the record's own status is renamed.
      records.sliceJson = (start, end) =>
        sliceJson(start, end).replace(/"status":"([a-z_]+)"/g, (whole, status: string) => (RENAMED[status] ? `"status":"${RENAMED[status]}"` : whole));
    }
  },
});
