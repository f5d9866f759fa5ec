import { defineMutant } from '../../mutant.js';

/** The largest page the free plan serves; bulk export (bigger pages) is a paid entitlement. */
const FREE_PLAN_MAX_PAGE = 100n;

/*
 * How this happens: "bulk export" becomes a paid feature, and product decides that the free plan
 * gets a soft limit rather than an error: a `limit` above the plan's maximum page size is quietly
 * served at the maximum, with an X-Plan-Notice header that says so. The clamp is applied where the
 * query is parsed, so has_more and the pages are computed for the clamped size, not the one the
 * client asked for. The default page size is 100 too, so every request that leaves `limit` out (or
 * asks for 100 or less) is unchanged, and the team's fixtures have fewer than 100 items anyway; a
 * client that asks for limit=10000 on a larger collection gets 100 items and has_more true, and
 * has to walk pages the document says do not exist.
 */
export default defineMutant({
  description:
    'A limit above 100 is silently served as 100 (free-plan page cap, announced only in an X-Plan-Notice header), so on a collection of more than 100 items has_more is true and the walk takes more than ceil(total_count / limit) pages.',
  breaks: { 'PAG-6': 'fail', 'PAG-7': 'fail', 'PAG-8': 'warn' },
  collateral: ['PAG-4', 'PAG-9', 'PAG-10', 'SUB-4'],
  modify: (reference) => {
    const faithful = reference.behaviour.parsePageParam;
    reference.behaviour.parsePageParam = (raw, name) => {
      const result = faithful(raw, name);
      if (name === 'limit' && result.ok && result.value > FREE_PLAN_MAX_PAGE) return { ok: true, value: FREE_PLAN_MAX_PAGE };
      return result;
    };
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || reply.statusCode !== 200) return payload;
      const raw = (req.query as Record<string, unknown> | undefined)?.limit;
      if (typeof raw === 'string' && /^[0-9]+$/.test(raw) && BigInt(raw) > FREE_PLAN_MAX_PAGE) {
        reply.header('x-plan-notice', `Page size limited to ${FREE_PLAN_MAX_PAGE} on the Free plan; upgrade for bulk export.`);
      }
      return payload;
    });
  },
});
