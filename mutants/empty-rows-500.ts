import { defineMutant } from './mutant.js';
import { beforeHandler, pathOf } from './support.js';

/**
 * A bulk insert of a submission's rows that builds one VALUES list from them: no row, no list, and
 * the SQL breaks. Written from a fault of a hidden batch (a collection-valued field crossed with
 * its empty value): values are varied inside rows, never the size of the collection that holds them.
 */
export default defineMutant({
  description: 'answers 500 to a submission whose rows are an empty array',
  breaks: { 'GEN-3': 'warn' },
  collateral: ['SUB-5'],
  // The pairs send the empty rows; their check of GEN-3 runs with the AUTH family's (suites/pairs.suite.ts).
  provokedBy: ['AUTH'],
  modify: (reference) => {
    beforeHandler(reference, async (req, reply) => {
      const rows = (req.body as { rows?: unknown } | null)?.rows;
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || !Array.isArray(rows) || rows.length > 0) return;
      await reply.code(500).send({ error: { type: 'api_error', code: null, message: 'syntax error at end of input', param: null, path: null } });
    });
  },
});
