import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RecordSource } from '../../../reference/data.js';
import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: in the move to the ORM, record tags became a `record_tags` table of their own,
 * and the records list turned into an N+1 (one tags query per record, 10000 of them on a big page).
 * The fix was a `leftJoinAndSelect('record.tags', 'tag')` on the list query, keeping the
 * `.limit(limit).offset((page - 1) * limit)` the query already had. With a join, LIMIT and OFFSET
 * count joined rows, not records (the ORM's own docs say to use `take`/`skip` with joins): a record
 * with two tags takes two of the page's rows, an untagged one takes one. `total_count` still comes
 * from the separate `getCount()` (distinct records, correct), and `has_more` from
 * `page * limit < total_count`. So a page holds fewer records than `limit`, a record whose tag rows
 * straddle a page boundary shows up on both pages (each copy with only the tags its page got), and
 * at small limits the walk stops before it reaches the later records. The records the dashboards
 * and the web app look at (first page, default limit) are all there, with their tags, so nobody
 * counts them.
 */

/** Joined rows a record takes: one per tag, one (with NULL tag columns) for an untagged record. */
function rowsOf(records: RecordSource, index: number): number {
  const tags = records.at(index).data.tags;
  return Array.isArray(tags) && tags.length > 0 ? tags.length : 1;
}

export default defineMutant({
  description:
    'The records list joins each record with its tags and applies limit and offset to the joined rows, so pages hold fewer records than limit, records straddling a page boundary repeat, and small-limit walks never reach the last records.',
  breaks: { 'PAG-7': 'fail', 'PAG-8': 'warn' },
  collateral: ['PAG-2', 'PAG-6', 'PAG-9', 'RES-7'],
  modify: (reference) => {
    const { state } = reference;
    /** Offsets of each record's first joined row, per record source (computed once, as a DB would index them). */
    const starts = new WeakMap<RecordSource, number[]>();
    const joinedOffsets = (records: RecordSource): number[] => {
      let offsets = starts.get(records);
      if (!offsets) {
        offsets = [];
        let offset = 0;
        for (let i = 0; i < records.count; i++) {
          offsets.push(offset);
          offset += rowsOf(records, i);
        }
        offsets.push(offset);
        starts.set(records, offsets);
      }
      return offsets;
    };

    reference.app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
      if (req.method !== 'GET' || pathOf(req) !== '/api/v1/records') return;
      const query = req.query as Record<string, unknown>;
      const page = state.behaviour.parsePageParam(query.page, 'page');
      const limit = state.behaviour.parsePageParam(query.limit, 'limit');
      // Bad parameters are refused before the query is built: the reference's own 422.
      if (!page.ok || !limit.ok) return;
      const records = req.account.data.records;
      const offsets = joinedOffsets(records);
      const joinedTotal = offsets[records.count]!;
      const offsetBig = (page.value - 1n) * limit.value;
      const items: Record<string, unknown>[] = [];
      if (offsetBig < BigInt(joinedTotal)) {
        const first = Number(offsetBig);
        const last = Math.min(joinedTotal, first + Number(limit.value));
        // The record holding joined row `first`: the last record starting at or before it.
        let lo = 0;
        let hi = records.count - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (offsets[mid]! <= first) lo = mid;
          else hi = mid - 1;
        }
        // Hydration groups the page's joined rows by record; tags are the rows the page holds.
        for (let i = lo; i < records.count && offsets[i]! < last; i++) {
          const record = records.at(i);
          const allTags = Array.isArray(record.data.tags) ? (record.data.tags as unknown[]) : [];
          const from = Math.max(first, offsets[i]!) - offsets[i]!;
          const to = Math.min(last, offsets[i + 1]!) - offsets[i]!;
          items.push({ ...record, data: { ...record.data, tags: allTags.slice(from, to) } });
        }
      }
      const hasMore = page.value * limit.value < BigInt(records.count);
      const total_count = state.behaviour.totalCount(records.count, items.length);
      reply.code(200).send({ items, has_more: hasMore, total_count });
      return reply;
    });
  },
});
