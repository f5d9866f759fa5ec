import { defineMutant } from './mutant.js';
import { beforeHandler, pathOf } from './support.js';

/**
 * The rows' member names gathered into a plain object used as a map (`columns[name] ??= []`), where
 * a name an object already has (`constructor`, `toString`) finds a function, not an array: its
 * `push` throws, and the submission is answered 500.
 */
export default defineMutant({
  description: "answers 500 to a submission whose row data has a member named like an object's own (constructor, toString)",
  breaks: { 'SUB-5': 'warn', 'GEN-3': 'warn' },
  modify: (reference) => {
    beforeHandler(reference, async (req, reply) => {
      const rows = (req.body as { rows?: unknown } | null)?.rows;
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || !Array.isArray(rows)) return;
      const columns: Record<string, unknown[]> = {};
      try {
        for (const row of rows) {
          const data = (row as { data?: unknown } | null)?.data;
          if (typeof data !== 'object' || data === null) continue;
          for (const [name, value] of Object.entries(data)) (columns[name] ??= []).push(value);
        }
      } catch (error) {
        await reply.code(500).send({ error: { type: 'api_error', code: null, message: (error as Error).message, param: null, path: null } });
      }
    });
  },
});
