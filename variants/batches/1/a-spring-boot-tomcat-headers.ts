import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the service is a Spring Boot 2.1-era application (Spring MVC,
 * Spring Security, Tomcat), as countless enterprise APIs still are. Its Jackson message converter
 * labels every JSON answer `Content-Type: application/json;charset=UTF-8` (no space, upper-case
 * charset: MediaType.APPLICATION_JSON_UTF8_VALUE, the default before Spring Framework 5.2, and
 * still what later apps send when their controllers declare it in `produces`). Spring Security's
 * HeaderWriterFilter adds its defaults to every response, errors included: `X-Content-Type-Options:
 * nosniff`, `X-XSS-Protection: 1; mode=block`, `Cache-Control: no-cache, no-store, max-age=0,
 * must-revalidate`, `Pragma: no-cache`, `X-Frame-Options: DENY` (its `Expires: 0` is left out here,
 * see below). The CORS filter (DefaultCorsProcessor) adds `Vary: Origin`, `Vary:
 * Access-Control-Request-Method` and `Vary: Access-Control-Request-Headers` to every response as
 * three separate field lines. The bearer-token entry point answers each 401 with an RFC 6750
 * challenge: `WWW-Authenticate: Bearer` when no bearer token was sent, and `Bearer
 * error="invalid_token", ...` when one was sent but is malformed, unknown or revoked. Tomcat
 * writes field names in the case the application set them (`Content-Type`, `X-RateLimit-Limit`,
 * `Retry-After`, `Date`), not lower-cased.
 *
 * Why it is conformant: `application/json;charset=UTF-8` is the JSON media type; media type,
 * subtype and parameter names are case-insensitive, the charset value too, and whitespace around
 * `;` is optional (RFC 9110 8.3.1, 8.3.2, 5.6.6); the document asks only that responses be JSON,
 * and every body stays byte for byte the reference's, in UTF-8. Field names are case-insensitive
 * (RFC 9110 5.1), so `X-RateLimit-Limit` is the same field as `x-ratelimit-limit`, with the same
 * value. Vary is a list-based field, which may be split over several field lines (RFC 9110 5.2,
 * 5.3, 12.5.5). The cache and security headers are fields HTTP allows any response to carry
 * (RFC 9111 5.2.2, 5.4). Spring's `Expires: 0` is omitted, as it is not an HTTP-date (RFC 9111 5.3
 * only tells caches how to read it). WWW-Authenticate on a 401 is what RFC 9110 11.6.1 asks for (a
 * MUST there), with the Bearer scheme the document's Authorization header uses (RFC 6750 3);
 * statuses, bodies and the 401's type `authentication_error` are untouched, and no challenge is
 * added to 429s, 403s or anything else.
 */

/** The case Tomcat writes these fields in, as the application (and Spring) set them. */
const SPELLING: Readonly<Record<string, string>> = {
  'content-type': 'Content-Type',
  date: 'Date',
  allow: 'Allow',
  'retry-after': 'Retry-After',
  'x-ratelimit-limit': 'X-RateLimit-Limit',
  'x-ratelimit-remaining': 'X-RateLimit-Remaining',
  'x-ratelimit-reset': 'X-RateLimit-Reset',
};

/** Spring Security's default response headers (Expires: 0 omitted: not an HTTP-date). */
const SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ['X-Content-Type-Options', 'nosniff'],
  ['X-XSS-Protection', '1; mode=block'],
  ['Cache-Control', 'no-cache, no-store, max-age=0, must-revalidate'],
  ['Pragma', 'no-cache'],
  ['X-Frame-Options', 'DENY'],
];

/** DefaultCorsProcessor's Vary values, each added as its own field line. */
const CORS_VARY = ['Origin', 'Access-Control-Request-Method', 'Access-Control-Request-Headers'];

/** Spring's MediaType.APPLICATION_JSON_UTF8_VALUE. */
const JSON_UTF8 = 'application/json;charset=UTF-8';

/** RFC 6750 3: a bare challenge when no bearer token was sent, invalid_token when one was. */
function bearerChallenge(authorization: string | undefined): string {
  if (authorization === undefined || !/^bearer(\s|$)/i.test(authorization.trim())) return 'Bearer';
  return 'Bearer error="invalid_token", error_description="Invalid API key", error_uri="https://tools.ietf.org/html/rfc6750#section-3.1"';
}

export default defineVariant({
  description:
    "serves JSON as application/json;charset=UTF-8 with Spring Security's default headers (nosniff, X-XSS-Protection, no-store Cache-Control, Pragma, X-Frame-Options), three Vary field lines from the CORS filter, an RFC 6750 WWW-Authenticate challenge on every 401, and field names in Tomcat's mixed case",
  openPoint: 'http-transport',
  atRisk: ['GEN-1', 'GEN-5', 'ERR-1', 'ERR-2', 'AUTH-1', 'AUTH-2', 'AUTH-3', 'AUTH-7', 'RATE-1', 'RATE-2', 'RATE-4', 'RATE-9', 'PAG-1', 'KEY-4'],
  modify: ({ app }) => {
    // The last onSend hook: it sees every field the reference and its clock have set.
    app.addHook('onSend', async (req, reply, payload) => {
      const type = reply.getHeader('content-type');
      if (typeof type === 'string' && /^application\/json\s*(;|$)/i.test(type)) reply.header('content-type', JSON_UTF8);
      if (reply.statusCode === 401) reply.raw.setHeader('WWW-Authenticate', bearerChallenge(req.headers.authorization));
      for (const [name, value] of SECURITY_HEADERS) reply.raw.setHeader(name, value);
      reply.raw.setHeader('Vary', CORS_VARY);
      // Fastify keeps its fields lower-cased until it writes them; a field moved to the raw
      // response keeps the case it is set in (Node writes each name as first given).
      for (const [lower, spelt] of Object.entries(SPELLING)) {
        const value = reply.getHeader(lower);
        if (value === undefined) continue;
        reply.removeHeader(lower);
        reply.raw.setHeader(spelt, value);
      }
      return payload;
    });
  },
});
