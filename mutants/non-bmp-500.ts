import { defineMutant } from './mutant.js';
import { beforeHandler, pathOf } from './support.js';

/** A utf8mb3 column (MySQL's old "utf8"): a character outside the BMP cannot be stored. */
export default defineMutant({
  description: 'answers 500 to a submission whose row data holds a character outside the Basic Multilingual Plane (emoji, CJK extension B)',
  breaks: { 'SUB-5': 'warn', 'GEN-3': 'warn' },
  modify: (reference) => {
    beforeHandler(reference, async (req, reply) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      if (!/[\u{10000}-\u{10FFFF}]/u.test(JSON.stringify((req.body as { rows?: unknown } | null)?.rows ?? null))) return;
      await reply.code(500).send({
        error: { type: 'api_error', code: null, message: "Incorrect string value: '\\xF0\\x9F\\x98\\x80' for column 'data'", param: null, path: null },
      });
    });
  },
});
