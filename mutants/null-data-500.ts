import { defineMutant } from './mutant.js';
import { beforeHandler, pathOf } from './support.js';

/**
 * A JSON column declared NOT NULL, with the check left to the database: a row whose data is null
 * passes validation (`typeof null === 'object'`) and fails at the insert, answered 500. Null is a
 * value class of `data` the invalid bodies' generators leave out (the document does not say whether
 * it is missing or invalid): the present-but-empty values send it, and GEN-3 judges every answer.
 */
export default defineMutant({
  description: 'answers 500 to a submission with a row whose data is null',
  breaks: { 'SUB-2': 'fail', 'GEN-3': 'warn' },
  modify: (reference) => {
    beforeHandler(reference, async (req, reply) => {
      const rows = (req.body as { rows?: unknown } | null)?.rows;
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || !Array.isArray(rows)) return;
      if (!rows.some((row) => typeof row === 'object' && row !== null && 'data' in row && (row as { data: unknown }).data === null)) return;
      await reply
        .code(500)
        .send({ error: { type: 'api_error', code: null, message: 'null value in column "data" violates not-null constraint', param: null, path: null } });
    });
  },
});
