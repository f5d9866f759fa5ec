import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: the SDK team builds a bulk importer on top of submission creation and asks
 * that one bad row no longer throw away a whole batch of thousands. The backend adds "partial
 * acceptance": rows that fail the row-level checks (not an object, no `data`, `data` not an
 * object) are set aside before validation, the rest are stored, and the 201 reports the rejected
 * rows in a `rejected_rows` array, as the importer wanted. The request-level checks (query
 * parameter, ids, `rows` being an array) still answer 4xx, so the team's own error tests of the
 * endpoint kept passing; but a submission whose only row is bad is now 201 with zero rows.
 */

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

interface Rejected {
  index: number;
  reason: string;
}

export default defineMutant({
  description:
    'Submission creation accepts a batch partially: rows that are not objects or whose data is missing or not an object are dropped and listed in rejected_rows of a 201, instead of failing the request with 422.',
  breaks: { 'SUB-2': 'fail' },
  collateral: ['SUB-3'],
  modify: (reference) => {
    const rejected = new WeakMap<object, Rejected[]>();
    reference.app.addHook('preHandler', async (req) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      const body = req.body;
      if (!isObject(body)) return;
      const rows: unknown = body.rows;
      if (!Array.isArray(rows)) return;
      const kept: unknown[] = [];
      const dropped: Rejected[] = [];
      for (const [index, row] of rows.entries()) {
        if (!isObject(row)) dropped.push({ index, reason: 'Row is not an object.' });
        else if (!('data' in row)) dropped.push({ index, reason: 'Row has no data.' });
        else if (!isObject(row.data)) dropped.push({ index, reason: 'Row data is not an object.' });
        else kept.push(row);
      }
      if (dropped.length === 0) return;
      body.rows = kept;
      rejected.set(req, dropped);
    });
    reference.app.addHook('onSend', async (req, reply, payload) => {
      const dropped = rejected.get(req);
      if (!dropped || reply.statusCode !== 201 || typeof payload !== 'string') return payload;
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (!isObject(body)) return payload;
      body.rejected_rows = dropped;
      return JSON.stringify(body);
    });
  },
});
