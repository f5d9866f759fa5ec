import { defineMutant } from '../../mutant.js';
import { isEnvelope, rewriteJson } from '../../support.js';

/*
 * How this happens: the list handlers are written in Go as `var items []Item` followed by
 * `items = append(items, ...)` over the rows of the query. When the query returns no rows the
 * slice is still nil, and `encoding/json` writes a nil slice as `null`, not `[]`. Every page with
 * items looks right; an empty one (an empty collection, a filter that matches nothing, a page past
 * the end) answers `"items": null`.
 */
export default defineMutant({
  description: 'A list page with no items is answered with "items": null instead of an empty array (has_more and total_count are unaffected).',
  breaks: { 'PAG-1': 'fail', 'PAG-9': 'warn' },
  collateral: ['PAG-7', 'PAG-8', 'SUB-4', 'KEY-6', 'RES-5'],
  modify: (reference) => {
    rewriteJson(reference, (body, req, reply) => {
      if (req.method !== 'GET' || reply.statusCode !== 200 || !isEnvelope(body) || body.items.length > 0) return body;
      return { ...body, items: null };
    });
  },
});
