import { defineMutant } from './mutant.js';
import { beforeHandler, pathOf } from './support.js';

/** Lenient input handling: a single row object is wrapped in an array, anything else ignored. */
export default defineMutant({
  description: 'accepts a submission whose rows is not an array (201), wrapping or dropping it',
  breaks: { 'SUB-2': 'fail' },
  collateral: ['ERR-3'],
  modify: (reference) => {
    beforeHandler(reference, async (req) => {
      const body = req.body as Record<string, unknown> | null;
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || typeof body !== 'object' || body === null) return;
      if (body.rows === undefined || body.rows === null || Array.isArray(body.rows)) return;
      const rows = body.rows as { data?: unknown };
      body.rows = typeof rows === 'object' && typeof rows.data === 'object' ? [rows] : [];
    });
  },
});
