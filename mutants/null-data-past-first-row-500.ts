import { defineMutant } from './mutant.js';
import { beforeHandler, pathOf } from './support.js';

/**
 * A one-row path grown into the general one: the first row is validated on its own, as the
 * one-row submissions of the first release were, and the rows after it go to the store, whose
 * NOT NULL column refuses a null data with an error answered 500. A value class of a row's data ×
 * the row's position: null sent only as the data of a lone row never meets it. Written apart
 * from a fault of a hidden batch (a null data that failed at the insert, in any row).
 */
export default defineMutant({
  description: 'answers 500 to a submission whose second or later row has data null (the first row alone is validated)',
  breaks: { 'SUB-2': 'fail', 'GEN-3': 'warn' },
  modify: (reference) => {
    beforeHandler(reference, async (req, reply) => {
      const rows = (req.body as { rows?: unknown } | null)?.rows;
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || !Array.isArray(rows)) return;
      const later = rows.slice(1).some((row) => typeof row === 'object' && row !== null && 'data' in row && (row as { data: unknown }).data === null);
      if (!later) return;
      await reply
        .code(500)
        .send({ error: { type: 'api_error', code: null, message: 'null value in column "data" violates not-null constraint', param: null, path: null } });
    });
  },
});
