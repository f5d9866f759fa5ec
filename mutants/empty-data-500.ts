import { defineMutant } from './mutant.js';
import { beforeHandler, pathOf } from './support.js';

/**
 * A bulk insert that builds its column list from each row's members: a row without any breaks the
 * SQL. Where the profile declares no sample row, one row holding an empty data object is SUB-1's own
 * request to the letter: SUB-5's boundary case, sent alone once a split finds it, is judged by SUB-1's
 * run-wide judge too (SUB-1's own check tags its row with the run).
 */
export default defineMutant({
  description: 'answers 500 to a submission with a row whose data is an empty object',
  breaks: { 'SUB-1': 'fail', 'SUB-5': 'warn', 'GEN-3': 'warn' },
  modify: (reference) => {
    const empty = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
    beforeHandler(reference, async (req, reply) => {
      const rows = (req.body as { rows?: unknown } | null)?.rows;
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || !Array.isArray(rows)) return;
      if (!rows.some((row) => empty((row as { data?: unknown } | null)?.data))) return;
      await reply.code(500).send({ error: { type: 'api_error', code: null, message: 'syntax error at or near ")"', param: null, path: null } });
    });
  },
});
