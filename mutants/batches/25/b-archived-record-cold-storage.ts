import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';
import { notFound } from '../../../reference/errors.js';

/*
 * How this happens: a nightly retention job moves records whose status is `archived` and that are
 * more than a year old out of the hot `records` table into cold storage, to keep the primary
 * small. The records list is served from the search index, which indexes both stores and so still
 * lists them; the single-record endpoint was left reading the hot table by primary key and answers
 * 404 for them. Fresh records and archived ones younger than a year are unaffected, so every record
 * the team creates in a test can be retrieved.
 */
const RETENTION_MS = 365 * 24 * 60 * 60 * 1000;

export default defineMutant({
  description:
    'Records with status "archived" and a recorded_at older than a year still appear in the records list, but retrieving them by id answers 404 (they were moved to cold storage).',
  breaks: { 'RES-4': 'fail' },
  collateral: ['RES-7'],
  modify: (reference) => {
    const prefix = itemPrefix(reference.state.profile.paths.record);
    if (!prefix) return;
    reference.app.addHook('preHandler', async (req, reply) => {
      const path = pathOf(req);
      if ((req.method !== 'GET' && req.method !== 'HEAD') || !path.startsWith(prefix) || path.length === prefix.length) return;
      let id: string;
      try {
        id = decodeURIComponent(path.slice(prefix.length));
      } catch {
        return;
      }
      const records = req.account.data.records;
      const index = records.indexOf(id);
      if (index === null) return;
      const record = records.at(index);
      if (record.status !== 'archived') return;
      const recordedAt = Date.parse(String(record.data.recorded_at));
      if (!Number.isFinite(recordedAt) || reference.state.now() - recordedAt < RETENTION_MS) return;
      return notFound(reply, 'Record');
    });
  },
});
