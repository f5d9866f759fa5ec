import { defineMutant } from '../../mutant.js';
import { beforeHandler } from '../../support.js';

/*
 * How this happens: the pentest found that `limit` reached a raw SQL `LIMIT` clause in an old
 * reporting query (`?limit=10;SELECT...`). Rather than validating at every call site, the team
 * added an input-sanitising middleware that "normalises" the numeric query parameters `page` and
 * `limit` by stripping every character that is not a digit before the handlers see them. Injection
 * is gone, but so is validation: `page=-1` becomes page 1, `limit=-5` becomes 5, `limit=2.5`
 * becomes 25, `page=abc` becomes empty (the default) and `limit=1e3` becomes 13, all answered 200
 * instead of 422.
 */
const NUMERIC = ['page', 'limit'] as const;

export default defineMutant({
  description:
    'A sanitising middleware strips all non-digit characters from the page and limit query parameters, so negative, fractional, textual and exponent values are silently read as other numbers (or the default) instead of being rejected with 422.',
  breaks: { 'PAG-3': 'fail', 'PAG-4': 'fail', 'PAG-5': 'fail', 'PAG-10': 'warn' },
  modify: (reference) => {
    beforeHandler(reference, async (req) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return;
      const query = req.query as Record<string, unknown> | undefined;
      if (typeof query !== 'object' || query === null) return;
      for (const name of NUMERIC) {
        const value = query[name];
        if (typeof value === 'string') query[name] = value.replace(/[^0-9]/g, '');
      }
    });
  },
});
