import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: the records function moved from SQL OFFSET paging to a key-value table that
 * pages by continuation key. To keep the v1 `page` parameter, the function remembers, in its
 * instance's memory, the continuation key that ended page N under "page N+1" (per account and
 * limit), and queries with `ExclusiveStartKey: cursors.get(page)`. For a page the instance never
 * reached (a direct jump, a page past the end: the last page returns no continuation key), that is
 * `undefined`, and the table silently starts from the top: the caller gets page 1's items, with
 * has_more from that query. A client walking page 1, 2, 3 ... on the warm instance gets exactly
 * the right pages, which is all the team's tests do.
 */
export default defineMutant({
  description:
    "The records list serves a page the function instance has not reached by walking from page 1 at the same limit (a direct jump, or any page past the end) from the top of the collection: page 1's items with has_more true.",
  breaks: { 'PAG-6': 'fail', 'PAG-9': 'warn' },
  collateral: ['PAG-7', 'PAG-8', 'PAG-10', 'RES-6'],
  modify: (reference) => {
    const { behaviour } = reference.state;
    /** `${account}:${limit}` → page number → index its continuation key starts at. */
    const cursors = new Map<string, Map<bigint, number>>();
    reference.app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'GET' || pathOf(req) !== '/api/v1/records') return;
      const query = req.query as Record<string, unknown>;
      const page = behaviour.parsePageParam(query.page, 'page');
      const limit = behaviour.parsePageParam(query.limit, 'limit');
      if (!page.ok || !limit.ok) return; // the reference's 422
      const records = req.account.data.records;
      const chainKey = `${req.account.id}:${limit.value}`;
      let chain = cursors.get(chainKey);
      if (!chain) cursors.set(chainKey, (chain = new Map()));
      const start = page.value === 1n ? 0 : (chain.get(page.value) ?? 0);
      const end = Math.min(records.count, start + Number(limit.value));
      const hasMore = end < records.count;
      if (hasMore) chain.set(page.value + 1n, end);
      if (BigInt(start) === (page.value - 1n) * limit.value) return; // the right page: served as usual
      return reply.code(200).send({ items: records.slice(start, end), has_more: hasMore, total_count: records.count });
    });
  },
});
