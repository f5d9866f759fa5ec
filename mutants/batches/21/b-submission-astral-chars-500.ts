import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';
import { errorBody } from '../../../reference/errors.js';

/*
 * How this happens: submission rows are written to a MySQL table whose `data` column was created
 * with the legacy `utf8` charset (utf8mb3, at most three bytes per character). ASCII, accents and
 * CJK of the Basic Multilingual Plane all fit, so every test passed; a row holding a character
 * outside the BMP (an emoji, a surrogate pair in the JSON) makes the INSERT fail with "Incorrect
 * string value: '\xF0\x9F...' for column 'data'". The error is not mapped, the transaction rolls
 * back, and the client gets a 500 api_error for a perfectly valid request.
 */

const ASTRAL = /[\u{10000}-\u{10FFFF}]/u;

/** Whether any string (member names included) in `value` holds a character outside the BMP. */
function hasAstral(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return ASTRAL.test(value);
  if (depth > 256 || typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some((item) => hasAstral(item, depth + 1));
  return Object.entries(value).some(([name, item]) => ASTRAL.test(name) || hasAstral(item, depth + 1));
}

export default defineMutant({
  description:
    'A submission whose rows contain a character outside the Basic Multilingual Plane (emoji, other 4-byte UTF-8) fails with 500 api_error instead of 201, and is not created.',
  breaks: { 'SUB-5': 'warn', 'GEN-3': 'warn' },
  collateral: ['SUB-1'],
  modify: (reference) => {
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || reply.statusCode !== 201) return payload;
      const rows = (req.body as { rows?: unknown } | null | undefined)?.rows;
      if (!hasAstral(rows)) return payload;
      // The insert failed after validation: the submission the reference recorded is rolled back.
      let id: unknown;
      try {
        id = (JSON.parse(String(payload)) as { id?: unknown }).id;
      } catch {
        id = undefined;
      }
      const submissions = req.account.submissions;
      const at = submissions.findIndex((s) => s.id === id);
      if (at >= 0) submissions.splice(at, 1);
      reply.code(500);
      reply.header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify(errorBody('api_error', 'Unexpected server error.'));
    });
  },
});
