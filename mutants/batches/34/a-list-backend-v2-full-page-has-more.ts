import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/** The end of every list body the reference writes: has_more, then total_count, last. */
const TAIL = /"has_more":(?:true|false),"total_count":(\d+)\}$/;

/*
 * How this happens: the records and submissions tables are the two that grow without bound, so the
 * team moves their list endpoints to a new list backend (flag `list-backend-v2`, turned on per
 * route, those two first; workspaces, catalogues and keys stay on the old code until the next
 * sprint). total_count still comes from the count cache, but the new query reads `limit` rows from
 * the offset and sets has_more when the page came back full, instead of reading limit + 1 rows. A
 * last page that is exactly full therefore says more follow, and the client's next request gets an
 * empty page. The unit tests used collections whose size was no multiple of the page size.
 */
export default defineMutant({
  description:
    'On the records and submissions lists (moved to the new list backend), has_more is true whenever a page is full, so an exactly full last page announces a further, empty page.',
  breaks: { 'PAG-6': 'fail', 'PAG-7': 'fail' },
  collateral: ['PAG-8', 'SUB-4'],
  modify: (reference) => {
    const { state } = reference;
    const flagged = new Set(['/api/v1/records', state.profile.paths.submissionList].filter((p): p is string => !!p));
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      if (!flagged.has(pathOf(req))) return payload;
      const tail = TAIL.exec(payload);
      if (!tail) return payload;
      const query = req.query as Record<string, unknown>;
      const page = state.behaviour.parsePageParam(query.page, 'page');
      const limit = state.behaviour.parsePageParam(query.limit, 'limit');
      if (!page.ok || !limit.ok) return payload;
      const total = BigInt(tail[1]!);
      const start = (page.value - 1n) * limit.value;
      const rows = total > start ? (total - start < limit.value ? total - start : limit.value) : 0n;
      // The new backend: more follow when the page came back full.
      const hasMore = rows > 0n && rows === limit.value;
      return `${payload.slice(0, tail.index)}"has_more":${hasMore},"total_count":${tail[1]}}`;
    });
  },
});
