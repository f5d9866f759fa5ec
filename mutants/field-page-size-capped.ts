import { defineMutant } from './mutant.js';
import { beforeHandler, pathOf } from './support.js';

/**
 * `MAX_PAGE_SIZE = 10` on the field list, clamped where it should refuse or serve: a larger limit
 * is answered with ten items and has_more true, so that the page total_count calls the last holds
 * fewer than asked and another page follows (a page short of the limit, not the last).
 */
export default defineMutant({
  description: 'the field list serves at most 10 items a page whatever larger limit is asked, and goes on with has_more',
  breaks: { 'PAG-6': 'fail', 'PAG-7': 'fail', 'PAG-8': 'warn' },
  // The same short page seen by the default limit's, the served limits', a page past the end's and a spelling's checks.
  collateral: ['PAG-2', 'PAG-4', 'PAG-9', 'PAG-10'],
  modify: (reference) => {
    const list = reference.state.profile.paths.fields;
    beforeHandler(reference, async (req) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || pathOf(req) !== list) return;
      const query = req.query as Record<string, unknown>;
      if (typeof query.limit === 'string' && /^[0-9]+$/.test(query.limit) && Number(query.limit) > 10 && Number(query.limit) <= 10_000) query.limit = '10';
    });
  },
});
