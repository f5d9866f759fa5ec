import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: a security review flagged `GET /api/v1/records?limit=10000` as a bulk
 * exfiltration vector, and a `MAX_RECORDS_PAGE_SIZE = 100` setting was added to the records
 * endpoint. Like the framework's paginator it clamps silently instead of refusing: a larger limit
 * is accepted (200) but the page is cut to 100, and has_more is computed from the clamped limit.
 * Other lists and every limit up to 100 are untouched; only a walk of the records with a large
 * limit sees more pages than ceil(total_count / limit).
 */
const MAX_RECORDS_PAGE_SIZE = 100;

export default defineMutant({
  description:
    'The records list silently clamps a limit above 100 to 100, so with limit=10000 a collection of more than 100 records comes in several pages and has_more is true on the first.',
  breaks: { 'PAG-6': 'fail', 'PAG-7': 'fail', 'PAG-8': 'warn' },
  collateral: ['PAG-4', 'PAG-9'],
  modify: (reference) => {
    reference.app.addHook('preHandler', async (req) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || pathOf(req) !== '/api/v1/records') return;
      const query = req.query as Record<string, unknown>;
      const raw = query.limit;
      // Only a plain in-range number is clamped; anything else reaches the reference's own validation.
      if (typeof raw !== 'string' || !/^[0-9]+$/.test(raw)) return;
      const value = Number(raw);
      if (value > MAX_RECORDS_PAGE_SIZE && value <= 10_000) query.limit = String(MAX_RECORDS_PAGE_SIZE);
    });
  },
});
