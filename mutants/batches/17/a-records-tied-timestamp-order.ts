import { createHash } from 'node:crypto';
import { defineMutant } from '../../mutant.js';
import type { RecordItem } from '../../../reference/data.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: product asks for "newest records first", and the query becomes
 * `ORDER BY data->>'recorded_at' DESC LIMIT :limit OFFSET :offset` with no unique tiebreaker.
 * Records that share a `recorded_at` come back in whatever order the database's top-N sort leaves
 * them, and that order depends on how many rows it keeps (OFFSET + LIMIT). Each page on its own
 * looks fine; a client walking the pages sees one of two tied records twice and never sees the
 * other. Nobody notices in testing, where every record had its own timestamp.
 */
export default defineMutant({
  description:
    'The records list is ordered by recorded_at (newest first) with no tiebreaker; tied records are ordered differently for each page, so a walk through the pages repeats some records and misses others.',
  breaks: { 'PAG-8': 'warn' },
  collateral: ['PAG-7'],
  modify: (reference) => {
    const { behaviour } = reference;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || pathOf(req) !== '/api/v1/records' || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const query = req.query as Record<string, unknown>;
      const page = behaviour.parsePageParam(query.page, 'page');
      const limit = behaviour.parsePageParam(query.limit, 'limit');
      if (!page.ok || !limit.ok) return payload;
      let body: { items?: unknown };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (!Array.isArray(body.items)) return payload;
      const records = req.account.data.records;
      const window = behaviour.pageWindow(records.count, page.value, limit.value);
      // The top-N sort keeps OFFSET + LIMIT rows; the order of ties depends on N.
      const kept = Math.min(records.count, window.end);
      const tie = (record: RecordItem) => createHash('md5').update(`${kept}:${record.id}`).digest().readUInt32BE(0);
      const recordedAt = (record: RecordItem) => String(record.data.recorded_at ?? '');
      const ordered = records
        .slice(0, records.count)
        .map((record) => ({ record, at: recordedAt(record), tie: tie(record) }))
        .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : a.tie - b.tie))
        .map((entry) => entry.record);
      body.items = ordered.slice(window.start, window.end);
      return JSON.stringify(body);
    });
  },
});
