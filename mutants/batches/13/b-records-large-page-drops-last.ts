import { defineMutant } from '../../mutant.js';
import { isEnvelope, pathOf, rewriteJson } from '../../support.js';

/*
 * How this happens: pages of more than 1000 records are served by an "export" path that reads
 * from a database cursor in chunks of 1000 and flushes each chunk as it goes. Its loop flushes a
 * full chunk correctly but stops one row short on the final, partial chunk, so the last record of
 * a large page is lost while total_count (a separate COUNT query) is right.
 */
export default defineMutant({
  description:
    'Records pages with limit above 1000 lose their last item when the page is not full (the end of the collection), while total_count still counts it.',
  breaks: { 'PAG-7': 'fail' },
  collateral: ['PAG-8'],
  modify: (reference) => {
    rewriteJson(reference, (body, req, reply) => {
      if (req.method !== 'GET' || pathOf(req) !== '/api/v1/records' || reply.statusCode !== 200 || !isEnvelope(body)) return body;
      const limit = Number((req.query as Record<string, unknown>).limit);
      if (!(limit > 1000) || body.items.length === 0 || body.items.length % 1000 === 0) return body;
      body.items.pop();
      return body;
    });
  },
});
