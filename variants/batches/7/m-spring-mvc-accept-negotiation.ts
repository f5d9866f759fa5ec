import type { FastifyRequest } from 'fastify';
import { sendError } from '../../../reference/errors.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: Spring MVC's content negotiation, as a Spring Boot 3 service
 * with Jackson serves it. `@RestController` classes declare `produces = "application/json"` (a
 * careful team does, so that a request no representation fits is refused before the handler runs,
 * not after: without it, `writeWithMessageConverters` throws only once the controller has done its
 * work). The request mapping's `ProducesRequestCondition` compares the `Accept` header with what
 * `MappingJackson2HttpMessageConverter` can write, `application/json` and `application/*+json`:
 * - `Accept` absent, `*\/*`, `application/*` or `application/json`: `Content-Type:
 *   application/json`. No `charset` parameter: since Spring 5.2 `APPLICATION_JSON_UTF8` is
 *   deprecated and Jackson writes plain `application/json` (RFC 8259 11: JSON has no charset
 *   parameter; it is UTF-8).
 * - `Accept` naming a concrete structured JSON type, `application/hal+json`,
 *   `application/vnd.acme+json`: the converter writes it, and the response is labelled with the
 *   type the client asked for (the most specific compatible one, highest quality first).
 *   `application/problem+json` is kept for problem documents (Spring 6 offers it for a
 *   `ProblemDetail` body, spring-framework#29588), and the API's bodies are none, so it is never
 *   chosen: a request that accepts nothing else is not acceptable.
 * - `Accept` with nothing JSON can fit, `text/html`, `application/xml`, `text/plain`, or
 *   `application/json;q=0` alone: `HttpMediaTypeNotAcceptableException`, answered 406 (Spring 6's
 *   ProblemDetail detail: "Acceptable representations: [application/json, application/*+json].").
 *   The team's `@ControllerAdvice` writes it in the API's envelope, as plain `application/json`.
 * Spring Security's filters come before the DispatcherServlet, so authentication and rate limiting
 * answer first (401, 429); the handler mapping answers an unknown path (404) and a wrong method
 * (405) before it looks at producible types. Django REST framework does the same by default
 * (`DefaultContentNegotiation`, `NotAcceptable`: 406 "Could not satisfy the request Accept
 * header.") and adds `Vary: Accept` to every response (`APIView.finalize_response`); the team adds
 * `Vary: Accept` too, since the representation depends on it. Unparsable media ranges are ignored
 * (a header of nothing but garbage reads as no header), a lenience a careful team adds over
 * Spring's own 406 for an `InvalidMediaTypeException`.
 *
 * Why it is conformant:
 * - What the service does, rule 4, "Responses are always JSON", and GEN-1: every answer, the 406
 *   included, is a JSON body; nothing but JSON is ever produced. A client that will take JSON
 *   (no Accept, `*\/*`, `application/json`, `application/*`, a browser's default Accept with its
 *   `*\/*;q=0.8`, fetch's `*\/*`) is served exactly as by the reference.
 * - GEN-5: successes are labelled `application/json` (parameters are allowed, none is required),
 *   and a requested `application/<x>+json` is a structured `+json` type the clause names as
 *   allowed (RFC 6839). Errors are labelled the same way.
 * - ERR-1, ERR-2: the 406 carries the common envelope, type `invalid_request_error` (one of the
 *   document's types; 406 is not a status of the Types table, so no pairing is required), code
 *   `not_acceptable`, param and path null. ERR-4 concerns 422s; this is not one.
 * - AUTH-1..AUTH-3, AUTH-7, RATE-*: authentication and the rate windows run first, unchanged; the
 *   406 is counted against the key like any authenticated request and carries its X-RateLimit-*
 *   headers. ERR-8: unknown paths stay 404, whatever the Accept header.
 * - KEY-1, SUB-1: a creation is refused before it happens when no JSON can be returned, so a key
 *   is never created whose secret the client could not be shown (KEY-4 unaffected).
 * - The document states nothing about Accept, charset parameters or Vary: open point
 *   `http-transport`. No declared fact changes.
 */

const JSON_TYPE = 'application/json';

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [full, ...params] = part.split(';').map((s) => s.trim());
    const m = /^([!#$%&'*+.^_`|~0-9a-z-]+)\/([!#$%&'*+.^_`|~0-9a-z-]+)$/i.exec(full ?? '');
    if (!m) continue;
    let q = 1;
    for (const param of params) {
      const qm = /^q\s*=\s*([0-9](?:\.[0-9]{0,3})?)$/i.exec(param);
      if (qm) q = Math.min(1, Number(qm[1]));
    }
    ranges.push({ type: m[1]!.toLowerCase(), subtype: m[2]!.toLowerCase(), q });
  }
  return ranges;
}

/** What Jackson can write for a range: the concrete type it labels the response with, or null. */
function producible(range: MediaRange): string | null {
  if (range.type === '*' && range.subtype === '*') return JSON_TYPE;
  if (range.type !== 'application') return null;
  if (range.subtype === '*' || range.subtype === 'json') return JSON_TYPE;
  // problem+json is for problem documents (RFC 9457); the API's bodies are not, so it is not offered.
  if (range.subtype.endsWith('+json') && !range.subtype.startsWith('*') && range.subtype !== 'problem+json') return `application/${range.subtype}`;
  return null;
}

const specificity = (r: MediaRange) => (r.type === '*' ? 0 : r.subtype === '*' ? 1 : 2);

/** The media type a response to this Accept header is written as, or null: 406. */
function negotiate(accept: string | string[] | undefined): string | null {
  const header = Array.isArray(accept) ? accept.join(',') : accept;
  if (header === undefined) return JSON_TYPE;
  const ranges = parseAccept(header);
  if (ranges.length === 0) return JSON_TYPE;
  const candidates = ranges
    .map((range, index) => ({ range, index, type: producible(range) }))
    .filter((c) => c.type !== null && c.range.q > 0)
    .sort((a, b) => b.range.q - a.range.q || specificity(b.range) - specificity(a.range) || a.index - b.index);
  return candidates[0]?.type ?? null;
}

export default defineVariant({
  description:
    'Spring MVC content negotiation with Jackson: responses are `application/json` without a charset, a requested `application/<x>+json` (other than problem+json) is answered under that type, and an authenticated request to a served route whose Accept admits no JSON type gets 406 invalid_request_error (code not_acceptable); every response carries `Vary: Accept`',
  openPoint: 'http-transport',
  atRisk: ['GEN-1', 'GEN-5', 'ERR-1', 'ERR-2', 'AUTH-7', 'KEY-1', 'SUB-1', 'PAG-1'],
  modify: ({ app }) => {
    // After the reference's authentication hook: a request it answered (401, 429) never gets here.
    app.addHook('onRequest', async (req: FastifyRequest, reply) => {
      // Unknown paths and wrong methods (the reference's not-found handler) are answered first.
      if (req.is404) return;
      if (negotiate(req.headers.accept) !== null) return;
      sendError(reply, 406, 'invalid_request_error', 'Acceptable representations: [application/json, application/*+json].', { code: 'not_acceptable' });
      return reply;
    });
    app.addHook('onSend', async (req, reply, payload) => {
      reply.header('vary', 'Accept');
      const current = reply.getHeader('content-type');
      if (typeof current === 'string' && /^application\/json\b/i.test(current)) {
        reply.header('content-type', (reply.statusCode !== 406 && negotiate(req.headers.accept)) || JSON_TYPE);
      }
      return payload;
    });
  },
});
