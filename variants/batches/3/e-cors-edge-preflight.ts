import type { FastifyRequest } from 'fastify';
import { defineVariant } from '../../variant.js';
/*
 * Where this happens in the field: the API is published through an AWS API Gateway HTTP API with
 * its built-in CORS configuration switched on (`CorsConfiguration`: allowOrigins ["*"],
 * allowMethods [GET, POST, DELETE], allowHeaders [authorization, content-type], exposeHeaders
 * [x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after], maxAge 300). The
 * gateway then answers every CORS preflight itself ("even if there isn't an OPTIONS route"), 204
 * with no content, without calling the service or its authorizer, and adds the configured CORS
 * headers to the integration's responses to requests that carry `Origin`. @fastify/cors registered
 * ahead of authentication does the same (its default optionsSuccessStatus is 204), as do Kong's
 * `cors` plugin and Envoy's CORS filter, though those two answer 200 with no content; 204 is the
 * choice that keeps "Responses are always JSON" beyond doubt. A team ships it so that browser apps
 * on other origins (dashboards, low-code tools) can call the API with a Bearer key. The per-IP budget for requests
 * without an Authorization header sits in front of the CORS responder (as an AWS WAF rate-based
 * rule scoped to requests lacking that header sits in front of API Gateway), so a preflight, which
 * never carries Authorization, spends that budget and past it gets the document's 429.
 *
 * Why it is conformant:
 * - A preflight is defined by the Fetch standard (OPTIONS with `Origin` and
 *   `Access-Control-Request-Method`) and by definition carries no credentials, so it cannot carry
 *   the Authorization header. The document's operations table defines no OPTIONS operation
 *   ("Operations"); the reading taken is that "All endpoints require the Authorization header" and
 *   Authentication rule 7 (a missing key yields 401) govern the API's operations, not the CORS
 *   protocol exchange that precedes them. A preflight obtains nothing of any account (no data, no
 *   key), so Authentication 4 (a key reads only its own account's data) is untouched. OPTIONS
 *   without those two headers is an ordinary request and reaches the service unchanged (401 without
 *   a key, 405 with one, as in the reference).
 * - The preflight answer is 204 with no content (RFC 9110 15.3.5; 9.3.7 lets a successful OPTIONS
 *   response carry content or none, and RFC 9110 dropped RFC 7231's "Content-Length: 0" sentence),
 *   with no Content-Type and no Content-Length (8.6 forbids Content-Length on a 204). "Responses are
 *   always JSON" (What the service does, rule 4) is not contradicted: there is no content to be
 *   JSON, the same reading the 204 of a key deletion needs.
 * - Limits: the document caps "Requests with no Authorization header" at 20 per minute per IP; a
 *   preflight is such a request, so it is counted against that budget and, past it, answered by the
 *   service's own 429 (`rate_limit_error`, `rate_limit_exceeded`, Retry-After, X-RateLimit-*),
 *   exactly as for any other request without the header. Requests with a valid key never spend it.
 * - On actual requests only headers are added (ACAO, ACEH); status, body and every documented
 *   header are the service's. Exposing X-RateLimit-* and Retry-After is what lets a browser client
 *   do what Limits asks ("Clients respect Retry-After"): none of them is CORS-safelisted. Retry-After
 *   itself is still sent on 429 only; its name appears elsewhere only inside the value of
 *   Access-Control-Expose-Headers.
 * - With `Access-Control-Allow-Origin: *` and no Access-Control-Allow-Credentials, browsers never
 *   attach cookies; the Bearer key is listed by name in Access-Control-Allow-Headers, since the
 *   Fetch standard never lets `*` cover Authorization.
 */

/** The edge's CORS configuration (API Gateway HTTP API `CorsConfiguration`). */
const CORS = {
  allowOrigin: '*',
  allowMethods: 'GET, POST, DELETE',
  allowHeaders: 'authorization, content-type',
  exposeHeaders: 'x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after',
  maxAgeSeconds: 300,
} as const;

/** A CORS preflight (Fetch standard, CORS protocol): OPTIONS with Origin and Access-Control-Request-Method. */
function isPreflight(req: FastifyRequest): boolean {
  return req.method === 'OPTIONS' && req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined;
}

export default defineVariant({
  description:
    'the edge answers CORS preflights itself (204, no content, no key needed, counted in the per-IP budget for requests without Authorization) and adds Access-Control-Allow-Origin: * and Access-Control-Expose-Headers for the rate-limit headers to responses to requests that carry Origin',
  openPoint: 'other-methods',
  atRisk: ['AUTH-1', 'AUTH-7', 'GEN-1', 'GEN-5', 'ERR-1', 'ERR-8', 'RATE-7', 'RATE-9'],
  modify: ({ app }) => {
    // Registered after the reference's own hooks: the service (and the per-IP limiter in front of
    // the CORS responder) has already decided; the edge rewrites what the browser sees.
    app.addHook('onSend', async (req, reply, payload) => {
      if (!isPreflight(req)) {
        if (req.headers.origin !== undefined) {
          reply.header('access-control-allow-origin', CORS.allowOrigin);
          reply.header('access-control-expose-headers', CORS.exposeHeaders);
        }
        return payload;
      }
      // Past the per-IP budget the preflight gets the document's 429, untouched.
      if (reply.statusCode === 429) return payload;
      // Otherwise the edge's own answer: whatever the service would have said (401 for the missing
      // key, 405 for OPTIONS, 404 off the API) never reaches the browser.
      reply.code(204);
      reply.removeHeader('content-type');
      reply.removeHeader('content-length');
      reply.header('access-control-allow-origin', CORS.allowOrigin);
      reply.header('access-control-allow-methods', CORS.allowMethods);
      reply.header('access-control-allow-headers', CORS.allowHeaders);
      reply.header('access-control-max-age', String(CORS.maxAgeSeconds));
      return null;
    });
  },
});
