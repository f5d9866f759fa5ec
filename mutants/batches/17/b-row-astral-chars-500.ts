import { errorBody } from '../../../reference/errors.js';
import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/** A code point outside the Basic Multilingual Plane: four bytes in UTF-8 (emoji, many CJK ideographs, math letters). */
const ASTRAL = /[\u{10000}-\u{10FFFF}]/u;

/*
 * How this happens: the rows table was created years ago in MySQL with `CHARSET=utf8`, which is
 * utf8mb3: three bytes a character at most. Every string of the Basic Multilingual Plane (accents,
 * Cyrillic, most CJK) is stored fine, so the Unicode tests written with "héllo" and "日本" pass, but
 * a four-byte character (an emoji, say) makes the INSERT fail with "Incorrect string value". The
 * driver's error is not mapped, so the request ends in the generic 500 api_error and the
 * transaction rolls back.
 */
export default defineMutant({
  description:
    'A submission whose row data contains a character outside the Basic Multilingual Plane (an emoji, in a key or a value) fails with 500 api_error instead of 201.',
  breaks: { 'GEN-3': 'warn', 'SUB-5': 'warn' },
  collateral: [],
  modify: (reference) => {
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || reply.statusCode !== 201 || typeof payload !== 'string') return payload;
      const rows = (req.body as { rows?: unknown } | null | undefined)?.rows;
      if (!Array.isArray(rows) || !ASTRAL.test(JSON.stringify(rows))) return payload;
      let created: { id?: unknown };
      try {
        created = JSON.parse(payload);
      } catch {
        return payload;
      }
      // The INSERT failed: the transaction rolls back and nothing is kept.
      const at = req.account.submissions.findIndex((s) => s.id === created.id);
      if (at >= 0) req.account.submissions.splice(at, 1);
      reply.code(500);
      return JSON.stringify(errorBody('api_error', 'Unexpected server error.'));
    });
  },
});
