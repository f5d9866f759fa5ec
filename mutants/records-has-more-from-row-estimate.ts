import { defineMutant } from './mutant.js';
import { isEnvelope, pathOf, rewriteJson } from './support.js';

/**
 * The records list takes has_more from the planner's row estimate, one above the true count, while
 * total_count is counted: has_more is `page × limit < estimate`, true on a last page that the limit
 * fills exactly. The records are too many for the walk at limit 1 to read page by page within its
 * budget, so the walk reads its first pages and the last one; has_more true on that last page says
 * the document's walk, until has_more is false, takes more pages than total_count gives (PAG-7).
 */
export default defineMutant({
  description: "the records list's has_more compares page × limit with a row estimate one above the count: true on a last page the limit fills exactly",
  breaks: { 'PAG-6': 'fail', 'PAG-7': 'fail' },
  collateral: ['PAG-8'],
  modify: (reference) => {
    const records = '/api/v1/records';
    rewriteJson(reference, (body, req) => {
      if (req.method !== 'GET' || pathOf(req) !== records || !isEnvelope(body)) return body;
      const query = req.query as Record<string, string | undefined>;
      const page = Number(query.page ?? 1);
      const limit = Number(query.limit ?? 100);
      if (Number.isInteger(page) && Number.isInteger(limit)) body.has_more = page * limit < body.total_count + 1;
      return body;
    });
  },
});
