import { defineMutant } from '../../mutant.js';
import { beforeHandler, pathOf } from '../../support.js';

/*
 * How this happens: validating every row of a large submission against the JSON schema dominated
 * the latency of POST /submissions, so the per-row schema check was taken off the hot path and the
 * rows are written as `JSON.stringify(row.data)` straight into a JSONB column, on the reasoning
 * that "Postgres validates the JSON anyway". It does, but JSONB accepts any JSON value: a row whose
 * `data` is a string, a number, a boolean, an array or null is stored and the submission answers
 * 201. Only a row without `data` still fails (the column is NOT NULL), and rows that are not
 * objects, and bad ids, are still caught by the checks that stayed.
 */
export default defineMutant({
  description: 'Submission creation accepts rows whose data is any JSON value (string, number, array, null) instead of rejecting a non-object data with 422.',
  breaks: { 'SUB-2': 'fail' },
  collateral: ['SUB-3'],
  modify: (reference) => {
    beforeHandler(reference, async (req) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      const body = req.body as Record<string, unknown> | null | undefined;
      if (typeof body !== 'object' || body === null || Array.isArray(body) || !Array.isArray(body.rows)) return;
      for (const row of body.rows as unknown[]) {
        if (typeof row !== 'object' || row === null || Array.isArray(row)) continue;
        const fields = row as Record<string, unknown>;
        if (!('data' in fields) || fields.data === undefined) continue;
        const data = fields.data;
        // Any JSON value is a valid JSONB value: what is not an object is stored as it came.
        if (typeof data !== 'object' || data === null || Array.isArray(data)) fields.data = {};
      }
    });
  },
});
