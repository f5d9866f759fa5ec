import { errorBody } from '../../../reference/errors.js';
import { defineMutant } from '../../mutant.js';
import { pathOf, rewriteJson } from '../../support.js';

/*
 * How this happens: submission rows are stored in a MySQL column declared with the legacy `utf8`
 * charset (utf8mb3: at most three bytes a character). Validation accepts any JSON object, but in
 * strict mode the INSERT of a character outside the Basic Multilingual Plane (an emoji, a CJK
 * extension ideograph) fails with "Incorrect string value", the transaction rolls back and the error
 * escapes as a 500. Accented and ordinary CJK test data fit in three bytes, so nobody saw it.
 */
export default defineMutant({
  description:
    'A submission whose row data holds a character outside the Basic Multilingual Plane (an emoji, say) passes validation and then fails to store: 500 api_error, nothing created.',
  breaks: { 'SUB-5': 'warn', 'GEN-3': 'warn' },
  collateral: ['SUB-1', 'SUB-4'],
  modify: (reference) => {
    const astral = /[\u{10000}-\u{10FFFF}]/u;
    rewriteJson(reference, (body, req, reply) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || reply.statusCode !== 201) return body;
      const rows = (req.body as { rows?: unknown } | null | undefined)?.rows;
      if (!astral.test(JSON.stringify(rows ?? null))) return body;
      // The INSERT failed: roll the submission back and let the driver's error surface.
      const submissions = req.account.submissions;
      const at = submissions.findIndex((s) => s.id === (body as { id?: unknown }).id);
      if (at >= 0) submissions.splice(at, 1);
      reply.code(500);
      return errorBody('api_error', 'Unexpected server error.');
    });
  },
});
