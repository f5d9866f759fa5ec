import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: ASP.NET Core's problem details pipeline. A service built on
 * `builder.Services.AddProblemDetails()` with `app.UseExceptionHandler()` and
 * `app.UseStatusCodePages()` has every error go through one writer, `IProblemDetailsService`: the
 * framework's own (an unrouted path, a wrong method, a body the JSON input formatter cannot read,
 * an unsupported media type, a body over `MaxRequestBodySize`), the authentication handler's
 * challenge (`JwtBearerEvents.OnChallenge`), the rate limiter's rejection
 * (`RateLimiterOptions.OnRejected`) and the controllers' `Problem(...)`/`ValidationProblem(...)`
 * results. MVC's `ObjectResult` for a `ProblemDetails` value is written by System.Text.Json's
 * output formatter as `Content-Type: application/problem+json; charset=utf-8`, the RFC 9457
 * media type (the middleware's `DefaultProblemDetailsWriter` sends the same type without the
 * charset parameter); the team's writer uses the former label for every error. A careful team keeps that pipeline but writes the
 * document's envelope through it: in `ProblemDetailsOptions.CustomizeProblemDetails` it clears
 * the standard members (`Type`, `Title`, `Status`, `Detail`, `Instance` are all
 * `[JsonIgnore(Condition = WhenWritingNull)]`, so nulls are left out), drops the default
 * `traceId` extension, and puts the envelope's `error` object in `Extensions`, which
 * `[JsonExtensionData]` writes as a top-level member. The body is exactly the reference's,
 * `{"error": {...}}` (or the 401 header problem's own shape); only the label of every error
 * response changes. Successes stay `application/json; charset=utf-8`, as System.Text.Json's
 * output formatter writes them.
 *
 * Why it is conformant:
 * - GEN-5: errors are labelled with a structured `+json` type; the clause names
 *   `application/problem+json` as allowed (RFC 6839, RFC 9457), parameters such as charset too.
 * - GEN-1 and What the service does, rule 4 ("Responses are always JSON"): the body is JSON
 *   byte for byte as the reference writes it. A body labelled problem+json is still JSON: a
 *   client that parses only what is labelled `application/json` is the one at fault.
 * - ERR-1, ERR-2, ERR-4, ERR-5, ERR-7, ERR-8, ERR-9: the envelope, its one top-level member
 *   `error`, its types, codes, params and paths are the reference's, unchanged. A problem
 *   details document has no required member (RFC 9457 3.1), so an envelope whose only member is
 *   an extension is a valid one; no `type` member is added at the top level, so no type outside
 *   the document's list appears anywhere (ERR-2).
 * - AUTH-7: the 401 for a missing or malformed header keeps its body, with
 *   `authentication_error` as the value of `error.type`. AUTH-1..AUTH-3, AUTH-8: statuses and
 *   bodies unchanged.
 * - RATE-3, RATE-4, RATE-7: the 429 keeps its body, message, code and headers.
 * - PAG-3..PAG-5, PAG-9, PAG-10, SUB-2, SUB-3, ERR-3, KEY-5, KEY-6, KEY-8: every error status and
 *   body as in the reference; only the Content-Type differs.
 * - The document states no media type beyond JSON: open point `http-transport`. No declared
 *   fact changes.
 */

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';

export default defineVariant({
  description:
    'ASP.NET Core problem details pipeline: every error response (4xx and 5xx, the 401 and 429 included) is labelled `application/problem+json; charset=utf-8`, its body still the documented envelope; successes stay `application/json; charset=utf-8`',
  openPoint: 'http-transport',
  rateLimits: true,
  atRisk: [
    'GEN-1',
    'GEN-5',
    'ERR-1',
    'ERR-2',
    'ERR-4',
    'ERR-5',
    'ERR-8',
    'AUTH-1',
    'AUTH-2',
    'AUTH-3',
    'AUTH-7',
    'PAG-3',
    'PAG-4',
    'PAG-5',
    'SUB-2',
    'ERR-3',
    'KEY-5',
    'RATE-3',
    'RATE-7',
  ],
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode < 400) return payload;
      const current = reply.getHeader('content-type');
      if (typeof current === 'string' && /^application\/json\b/i.test(current)) reply.header('content-type', PROBLEM_JSON);
      return payload;
    });
  },
});
