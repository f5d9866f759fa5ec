import { defineMutant } from '../../mutant.js';
import { beforeHandler, pathOf } from '../../support.js';

/*
 * How this happens: to keep large uploads fast, the submission endpoint validates the shape of
 * `rows[0]` as a sample and streams the rest to the import queue unchecked, on the assumption that
 * rows come from one generator. A batch whose first row is fine but a later row is not (a string
 * `data`, a bare number) is accepted with 201 and fails later in the background import.
 */
export default defineMutant({
  description: 'Submission creation validates only the first row; a malformed later row is accepted with 201 instead of 422.',
  breaks: { 'SUB-2': 'fail', 'SUB-3': 'warn' },
  collateral: ['ERR-3', 'ERR-4'],
  modify: (reference) => {
    beforeHandler(reference, async (req) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      const body = req.body as { rows?: unknown } | null | undefined;
      if (typeof body !== 'object' || body === null || !Array.isArray(body.rows) || body.rows.length < 2) return;
      // Only the sample row reaches the validator: the others are passed on as placeholders.
      body.rows = body.rows.map((row, index) => (index === 0 ? row : { data: {} }));
    });
  },
});
