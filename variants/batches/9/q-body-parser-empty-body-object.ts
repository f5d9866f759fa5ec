import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: Express's JSON body parser. body-parser's `json()` (what
 * `express.json()` is) special-cases an empty body: `if (body.length === 0) return {}`, with the
 * comment "special-case empty json body, as it's a common client-side mistake"; Next.js API routes
 * (`parseJson`: `if (!str) return {}`) and koa-bodyparser do the same. And with Express 4
 * (body-parser 1.x) a request that carries no body at all finds `req.body` set to `{}` as well.
 * A POST with an empty body therefore reaches the route as an empty object, and the route reports
 * what is missing from it, as it would for `{}`.
 *
 * Here: a POST whose body is empty (`Content-Type: application/json` with no content) or absent
 * (no Content-Type, no content) is read as `{}`. `POST /api/v1/api_keys` then answers 400
 * `missing_param` naming `name`; `POST /api/v1/submissions` (with its workspace parameter) answers
 * 400 `missing_param` naming the first required body field. The reference answered 400
 * `invalid_json` for the empty JSON body and 422 `invalid_body` for the absent one. Every body with
 * content is read exactly as the reference reads it: invalid JSON is still 400 `invalid_json`, a
 * JSON value that is not an object still 422 naming `body`, another media type unchanged.
 *
 * Why it is conformant:
 * - Errors, rule 1: "A genuinely missing required parameter returns status 400, not 422." An empty
 *   body sends no parameter at all, so each required one is genuinely missing: 400, with code
 *   `missing_param` and `param` naming it (ERR-3, ERR-7; KEY-8: a key created without `name` is
 *   400). Nothing is created from an empty body: every field the profile lists as required is
 *   absent.
 * - GEN-4 asks that a body that is not valid JSON, or not a JSON object, be rejected with a 4xx
 *   error envelope: an empty body is rejected with 400 in the common envelope (ERR-1). The status of
 *   a body that is not valid JSON is left open (open point `malformed-body-status`), and a body
 *   with content that is not JSON is still 400 here.
 * - No client input yields a 5xx (GEN-3); the error type of the 400 is the reference's
 *   `invalid_request_error` (not shown by the document, not checked by ERR-2).
 */

export default defineVariant({
  description:
    "body-parser's empty-body rule (Express, Next.js, koa-bodyparser): a POST with an empty or absent body is read as {}, so it answers 400 missing_param naming the first missing required field, not 400 invalid_json or 422",
  openPoint: 'malformed-body-status',
  atRisk: ['GEN-3', 'GEN-4', 'ERR-1', 'ERR-3', 'ERR-7', 'KEY-8'],
  modify: ({ app }) => {
    // Fastify's own JSON parser (the reference's, prototype-poisoning checks included), but `{}` for no content.
    const json = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
      const text = body.toString(); // a string already (parseAs: 'string')
      if (text.length === 0) return done(null, {});
      return json(req, text, done);
    });
    // No body at all (Express 4: `req.body` starts as `{}`).
    app.addHook('preValidation', async (req) => {
      if (req.method === 'POST' && req.body === undefined) req.body = {};
    });
  },
});
