import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: deep OFFSET scans on the records table got slow, so the list keeps `page` and
 * `limit` outside but serves any page that starts at offset 100 or beyond with a keyset seek: it
 * first reads the boundary id with `SELECT id ... ORDER BY id LIMIT 1 OFFSET :offset`, then
 * `WHERE id > :boundary ORDER BY id LIMIT :limit + 1` (the extra row decides has_more). The
 * boundary should be the row at `offset - 1` (the last row of the previous page); it is the row at
 * `offset` (the first row of the requested page), so every seek page silently drops its first
 * record. Pages in the first 100 rows still use OFFSET, and the team's tests only look at those.
 * With the default limit, page 2 holds 19 of the last 20 records; walks at small limits lose one
 * record per page past offset 100 and end a page early.
 */
const SEEK_FROM_OFFSET = 100n;

export default defineMutant({
  description:
    'Records pages starting at offset 100 or beyond are served by a keyset seek whose boundary is the first row of the requested page instead of the last row of the previous one, so each such page skips one record and a walk misses records.',
  breaks: { 'PAG-7': 'fail', 'PAG-8': 'warn' },
  collateral: ['PAG-6', 'PAG-9'],
  modify: (reference) => {
    const { behaviour } = reference.state;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || pathOf(req) !== '/api/v1/records' || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const query = req.query as Record<string, unknown>;
      const page = behaviour.parsePageParam(query.page, 'page');
      const limit = behaviour.parsePageParam(query.limit, 'limit');
      if (!page.ok || !limit.ok) return payload;
      const records = req.account.data.records;
      const offset = (page.value - 1n) * limit.value;
      // Shallow pages (OFFSET) and pages past the end are answered as before.
      if (offset < SEEK_FROM_OFFSET || offset >= BigInt(records.count)) return payload;
      const size = Number(limit.value);
      // WHERE id > (the id AT offset): the seek starts one row too late.
      const start = Number(offset) + 1;
      const end = Math.min(records.count, start + size);
      const served = Math.max(0, end - start);
      const hasMore = start + size < records.count;
      return `{"items":${records.sliceJson(start, end)},"has_more":${hasMore},"total_count":${behaviour.totalCount(records.count, served)}}`;
    });
  },
});
