import { defineMutant } from './mutant.js';
import { isEnvelope, pathOf, rewriteJson } from './support.js';

/**
 * A fast path for small pages of records that returns the rows as the store holds them: `data`, a
 * JSON column, comes out as its text, not an object (API document, Records: `data` is an object).
 * Pages of more than ten records go through the serializer and are right.
 */
export default defineMutant({
  description: 'records on a page of at most ten carry data as a JSON string, not an object',
  breaks: { 'RES-3': 'fail' },
  // RES's own checks read pages of a hundred; the small pages are the pagination suite's, which RES-3's run-wide judge reads.
  provokedBy: ['PAG'],
  modify: (reference) => {
    rewriteJson(reference, (body, req) => {
      const limit = Number((req.query as Record<string, unknown>).limit ?? 100);
      if (req.method !== 'GET' || pathOf(req) !== '/api/v1/records' || !isEnvelope(body) || !(limit <= 10)) return body;
      body.items = body.items.map((item: Record<string, unknown>) => ({ ...item, data: JSON.stringify(item.data) }));
      return body;
    });
  },
});
