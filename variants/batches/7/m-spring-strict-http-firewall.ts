import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from '../../../reference/errors.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: every Spring Boot application with Spring Security on the
 * classpath. `FilterChainProxy`, the first security filter, passes each request through
 * `StrictHttpFirewall` (the default `HttpFirewall` since Spring Security 4.2.4) before any other
 * filter, so before the bearer-token filter (`BearerTokenAuthenticationFilter`) and before any
 * rate limiter registered as a filter behind it (Bucket4j's servlet filter, say). The firewall
 * rejects, with a `RequestRejectedException`:
 * - an HTTP method outside DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT
 *   ("The request was rejected because the HTTP method "PROPFIND" was not included within the
 *   list of allowed HTTP methods [...]");
 * - a request URI (the path, undecoded, without the query) holding a blocklisted string: `;`,
 *   `%3B` (matrix parameters, `;jsessionid=`), an encoded slash `%2F`, an encoded period `%2E`,
 *   a backslash `\` or `%5C`, an encoded percent `%25`, `%00`, `%0A`, `%0D`, `%E2%80%A8`,
 *   `%E2%80%A9`, or a double slash `//` ("The request was rejected because the URL contained a
 *   potentially malicious String "%2F"");
 * - a path that is not normalized, with a `.` or `..` segment ("The request was rejected because
 *   the URL was not normalized.");
 * - a request URI with a character outside printable ASCII ("The requestURI was rejected because
 *   it can only contain printable ASCII characters.").
 * Out of the box the default `RequestRejectedHandler` does not write the API's JSON (depending
 * on the version the exception reaches the container's error page, or a bare status is sent);
 * a careful team registers its own `RequestRejectedHandler` bean that writes the API's error
 * envelope: 400 `invalid_request_error`, code `request_rejected`, param and path null, the
 * firewall's own sentence as the message. The firewall's lazy checks of parameter values accept every value by
 * default (`allowedParameterValues` is `(value) -> true`), so `page` and `limit` spellings still
 * reach the API's own validation (PAG-5, PAG-10). Here the firewall is modelled where Spring puts
 * it, in front of everything: a rejected request is answered before authentication and before
 * any rate window counts it (the server's `request` listener marks it and hands it to a route of
 * its own outside `/api/`, so the Date and clock hooks still run).
 *
 * Why it is conformant:
 * - No documented request is touched. Every endpoint path of the document (`/api/v1/workspaces`,
 *   `/api/v1/governance_models`, `/api/v1/records`, `/api/v1/submissions`, `/api/v1/api_keys`)
 *   and every path of the profile is plain printable ASCII without `;`, `//`, dot segments or
 *   encoded separators, and the reference's ids (`ws_…`, `rec_…`, `key_…`) are `[a-z0-9_]`: no
 *   resource can be named by a rejected URL. Queries are never inspected, so PAG-2..PAG-10,
 *   SUB-1..SUB-5 and ERR-3 see the reference's answers.
 * - GEN-1, ERR-1: the rejection is JSON, in the common envelope with all five members.
 * - ERR-2: 400 is not a status of the Types table; its type is not shown (Errors, rule 1) and not
 *   checked; `invalid_request_error` is one of the document's types all the same. GEN-3: a 4xx,
 *   never a 5xx, for any URL. ERR-7 concerns a 400 for a missing parameter; this 400 is not one,
 *   and names no parameter.
 * - AUTH-1, AUTH-2, AUTH-3, AUTH-7: every request to an endpoint still requires the header; a
 *   rejected URL is not an endpoint of the document (Operations lists paths, none of which a
 *   rejected URL spells), and nothing is served for it, so nothing is reached without a key.
 * - ERR-5, ERR-8, ERR-9, RES-4: a missing resource or an unknown path spelt in a normalized,
 *   unencoded URL is 404 as in the reference. A URL the firewall rejects names no path at all
 *   until it is decoded and normalized, which the server refuses to do; "not found" would be a
 *   guess about what the client meant. The document does not say how such URLs are answered.
 * - GEN-1's "unsupported methods": a method outside the seven is answered with this JSON 400
 *   instead of the reference's 405 or 404; the document states no status for other methods
 *   (open point `other-methods`), and the body is JSON.
 * - RATE-7: a rejected request without a header is not counted in the per-IP window; the window
 *   still counts every request without a header that reaches the API, and its 429 comes at 21 as
 *   in the reference. RATE-1..RATE-9 are otherwise unchanged (a rejection never carried a key).
 * - Open point: how the HTTP layer answers request forms the document does not describe
 *   (`http-transport`, "HTTP details ... not stated"). No declared fact changes: the profile is
 *   the reference's.
 */

const ALLOWED_METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];

/** StrictHttpFirewall's encoded and decoded blocklists, as it checks them against the request URI. */
const BLOCKLIST = [
  ';',
  '%3b',
  '%3B',
  '%2f',
  '%2F',
  '//',
  '\\',
  '%5c',
  '%5C',
  '%25',
  '%2e',
  '%2E',
  '%00',
  '\0',
  '%0a',
  '%0A',
  '%0d',
  '%0D',
  '\n',
  '\r',
  '%e2%80%a8',
  '%E2%80%A8',
  '%e2%80%a9',
  '%E2%80%A9',
  '\u2028',
  '\u2029',
];

/** Where a rejected request is handed: outside `/api/`, so that no authentication or rate window sees it. */
const REJECTED_ROUTE = '/__strict-http-firewall/rejected';

/** The firewall's verdict on a request: null to let it through, else the message of its rejection. */
function firewallVerdict(method: string, rawUrl: string): string | null {
  if (!ALLOWED_METHODS.includes(method)) {
    return `The request was rejected because the HTTP method "${method}" was not included within the list of allowed HTTP methods [${ALLOWED_METHODS.join(', ')}]`;
  }
  // The request URI: the path as sent, no query; an absolute-form target is read for its path.
  let path = rawUrl.split('?')[0]!;
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path);
  if (absolute) path = path.slice(absolute[0].length) || '/';
  for (const bad of BLOCKLIST) {
    if (path.includes(bad)) return `The request was rejected because the URL contained a potentially malicious String "${printable(bad)}"`;
  }
  const segments = path.split('/');
  if (segments.some((s) => s === '.' || s === '..')) return 'The request was rejected because the URL was not normalized.';
  if (!/^[\x20-\x7e]*$/.test(path)) return 'The requestURI was rejected because it can only contain printable ASCII characters.';
  return null;
}

function printable(s: string): string {
  return s.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export default defineVariant({
  description:
    "Spring Security's StrictHttpFirewall in front of everything: a request whose method is not one of the seven standard ones, or whose path holds `;`, `//`, `\\`, an encoded slash, period, percent or control character, a dot segment or non-ASCII, is answered 400 invalid_request_error (code request_rejected, the firewall's own sentence) before authentication and rate limiting",
  openPoint: 'http-transport',
  atRisk: ['ERR-5', 'ERR-8', 'ERR-9', 'RES-4', 'AUTH-1', 'AUTH-7', 'GEN-1', 'ERR-1', 'ERR-2', 'ERR-7', 'RATE-7'],
  modify: ({ app }) => {
    const rejected = new WeakMap<IncomingMessage, string>();
    const server = app.server;
    // Fastify's handler, registered when the server was created: the firewall goes in front of it.
    const handlers = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const verdict = firewallVerdict(req.method ?? '', req.url ?? '/');
      if (verdict !== null) {
        rejected.set(req, verdict);
        // HEAD stays HEAD (no body is written); everything else is read as a GET of the
        // rejection's route, so that no body parser and no method route is consulted.
        if (req.method !== 'HEAD') req.method = 'GET';
        req.url = REJECTED_ROUTE;
      }
      for (const handler of handlers) handler.call(server, req, res);
    });
    app.get(REJECTED_ROUTE, async (req, reply) => {
      const verdict = rejected.get(req.raw);
      if (verdict === undefined) return sendError(reply, 404, 'not_found_error', `No endpoint ${REJECTED_ROUTE}.`);
      return sendError(reply, 400, 'invalid_request_error', verdict, { code: 'request_rejected' });
    });
  },
});
