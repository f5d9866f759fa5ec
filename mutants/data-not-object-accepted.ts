import { defineMutant } from './mutant.js';
import { beforeHandler, pathOf } from './support.js';

/** A JSON column that takes any value: a row's data is stored whatever its type. */
export default defineMutant({
  description: 'accepts a row whose data is a string, number, boolean or array (201)',
  breaks: { 'SUB-2': 'fail' },
  modify: (reference) => {
    beforeHandler(reference, async (req) => {
      const rows = (req.body as { rows?: unknown } | null)?.rows;
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || !Array.isArray(rows)) return;
      for (const row of rows) {
        const data = (row as { data?: unknown } | null)?.data;
        if (data !== undefined && data !== null && (typeof data !== 'object' || Array.isArray(data))) (row as { data: unknown }).data = { value: data };
      }
    });
  },
});
