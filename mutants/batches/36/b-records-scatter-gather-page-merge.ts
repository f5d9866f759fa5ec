import { defineMutant } from '../../mutant.js';
import { beforeHandler, pathOf } from '../../support.js';

/** Catalogue shards the records table is split over (by sequence number, modulo the count). */
const SHARDS = 2;

/*
 * How this happens: records outgrow one database, so the catalogue service splits them over two
 * shards by sequence number, and the edge's records endpoint becomes a scatter-gather: it sends the
 * client's `page` and `limit` unchanged to each shard, merges the answers by id, keeps the first
 * `limit`, adds up the shards' `total_count` and reports `has_more` if any shard (or the merge)
 * had more. For page 1 this is exactly right, because each shard's first `limit` rows contain the
 * global first `limit`; that is the page every dashboard, smoke test and manual curl looks at. For
 * page 2 and on, each shard skips `(page - 1) * limit` of its own rows, so the merge starts far past
 * where the global page should, and the rows in between are never served. The counts stay right.
 */
export default defineMutant({
  description:
    'The records list gathers each page from two shards with the client page and limit and keeps the first limit of the merge, so pages after the first skip records while total_count still counts them.',
  breaks: { 'PAG-7': 'fail', 'PAG-8': 'warn' },
  collateral: ['PAG-6'],
  modify: (reference) => {
    const { state } = reference;
    beforeHandler(reference, async (req, reply) => {
      if (req.method !== 'GET' || pathOf(req) !== '/api/v1/records') return;
      const query = req.query as Record<string, unknown>;
      const page = state.behaviour.parsePageParam(query.page, 'page');
      const limit = state.behaviour.parsePageParam(query.limit, 'limit');
      // Parameter errors are the edge's own validation: unchanged.
      if (!page.ok || !limit.ok) return;
      const records = req.account.data.records;
      const offset = (page.value - 1n) * limit.value;
      const gathered: number[] = [];
      let shardHasMore = false;
      for (let shard = 0; shard < SHARDS; shard++) {
        // Shard `shard` holds the records whose index is `shard` modulo SHARDS, in order.
        const size = Math.max(0, Math.ceil((records.count - shard) / SHARDS));
        if (offset >= BigInt(size)) continue;
        const start = Number(offset);
        const end = Math.min(size, start + Number(limit.value));
        for (let k = start; k < end; k++) gathered.push(k * SHARDS + shard);
        shardHasMore ||= end < size;
      }
      gathered.sort((a, b) => a - b);
      const kept = gathered.slice(0, Number(limit.value));
      const items = kept.map((index) => records.at(index));
      return reply.code(200).send({ items, has_more: shardHasMore || gathered.length > kept.length, total_count: records.count });
    });
  },
});
