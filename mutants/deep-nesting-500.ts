import { defineMutant } from './mutant.js';
import { beforeHandler, pathOf } from './support.js';

/** A recursive flattener with a fixed stack budget: deeply nested data overflows it. */
export default defineMutant({
  description: 'answers 500 to a submission whose row data nests objects and arrays more than 16 deep',
  breaks: { 'SUB-5': 'warn', 'GEN-3': 'warn' },
  modify: (reference) => {
    const depth = (value: unknown): number => (typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depth)) : 0);
    beforeHandler(reference, async (req, reply) => {
      const rows = (req.body as { rows?: unknown } | null)?.rows;
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || !Array.isArray(rows)) return;
      if (!rows.some((row) => depth((row as { data?: unknown } | null)?.data) > 16)) return;
      await reply.code(500).send({ error: { type: 'api_error', code: null, message: 'Maximum call stack size exceeded', param: null, path: null } });
    });
  },
});
