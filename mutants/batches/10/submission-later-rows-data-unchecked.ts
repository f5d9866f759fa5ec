import { defineMutant } from '../../mutant.js';
import { beforeHandler, pathOf } from '../../support.js';

/*
 * How this happens: bulk imports of many thousand rows were slow, so the validator was changed to
 * check the first row in full (to infer the batch's shape) and, for the remaining rows, only run
 * the cheap `row?.data === undefined` test on the hot path. A later row whose `data` is a string,
 * a number, an array or null passes and the submission is created; a later row that is not an
 * object at all has no `data` and is reported as a missing parameter (400) instead of an invalid
 * row (422).
 */
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export default defineMutant({
  description:
    'Submission creation validates only the first row in full: a later row whose data is not an object is accepted (201), and a later row that is not an object is a 400 missing data instead of a 422.',
  breaks: { 'SUB-2': 'fail' },
  collateral: ['SUB-3'],
  modify: (reference) => {
    beforeHandler(reference, async (req) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      const body = req.body;
      if (!isObject(body) || !Array.isArray(body.rows) || body.rows.length < 2) return;
      // What the fast path lets through, rewritten into what the reference's full check passes
      // (the store keeps only the row count) or answers as a missing `data`.
      const rows = body.rows.map((row: unknown, index: number) => {
        if (index === 0) return row;
        const data = (row as { data?: unknown } | null | undefined)?.data;
        if (data === undefined) return {};
        return isObject(data) ? row : { ...(row as object), data: {} };
      });
      req.body = { ...body, rows };
    });
  },
});
