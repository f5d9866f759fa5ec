import type { IncomingMessage } from 'node:http';
import { sendError } from '../../../reference/errors.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the service is a WSGI application (Flask, Django) run by
 * Apache httpd with mod_wsgi, the long-standing Debian/RHEL way of hosting Python APIs. Two of
 * their defaults shape the wire:
 * - `WSGIChunkedRequest Off` (mod_wsgi's default; its documentation: "Rather than Apache rejecting
 *   a request using chunked request content, it will be allowed to pass through" once turned on):
 *   WSGI needs CONTENT_LENGTH before the application is called, so a request whose body comes with
 *   `Transfer-Encoding: chunked` is refused by Apache under its REQUEST_CHUNKED_ERROR read policy
 *   ("Send 411 error if body without Content-Length", the policy mod_python and mod_proxy_uwsgi
 *   use as well) with 411 Length Required, "A request of the requested method POST requires a
 *   valid Content-length.", before the application runs: no authentication, no rate limiting, no
 *   X-RateLimit-* headers. The deployment's `ErrorDocument 411` points at a static JSON file in
 *   the API's error envelope.
 * - `ap_status_drops_connection` (httpd.h): after any response with status 400, 408, 411, 413,
 *   414, 500, 501 or 503, whoever made it (httpd or the application), Apache turns keep-alive off,
 *   sends `Connection: close` and closes the connection, after reading and discarding what the
 *   client still sends (lingering close; here the rest of the body is read before the response
 *   goes out, to the same end). Tomcat copies the same list (statusDropsConnection).
 * So the API's 400s (a missing required parameter, a body that is not JSON), its 413 and the 411
 * all end their connection.
 *
 * Why it is conformant:
 * - RFC 9112 6.3: "A server MAY reject a request that contains a message body but not a
 *   Content-Length by responding with 411 (Length Required)", and it tells clients that they
 *   SHOULD send Content-Length rather than chunked when the length is known "since some existing
 *   services respond to chunked with a 411 (Length Required) status code even though they
 *   understand the chunked transfer coding. This is typically because such services are
 *   implemented via a gateway that requires a content length in advance of being called" (WSGI is
 *   exactly that). RFC 9110 15.5.12: 411 says the server refuses the request without a defined
 *   Content-Length, and the client MAY repeat it with one. The document (What the service does,
 *   rule 3) asks only for `Content-Type: application/json` on a request with a body; how the body
 *   is framed is HTTP's concern, which the document leaves open (open point `http-transport`).
 * - Every request framed with Content-Length (what fetch, curl, Python requests and every HTTP
 *   library send for a body they hold) and every request without a body is served exactly as by
 *   the reference: creation of keys and submissions (KEY-1, SUB-1), validation (SUB-2, SUB-3,
 *   SUB-5, GEN-4), missing parameters as 400 (ERR-3, ERR-7, KEY-8), authentication (AUTH-*), rate
 *   limiting (RATE-*). A chunked request is refused whatever its path or credential: the refusal
 *   concerns the message's framing, which is settled before the request is handed to the API
 *   (RFC 9112 6.3 makes it a property of the message, not of any method or resource). A request
 *   without an Authorization header that is framed with Content-Length still gets its 401 (AUTH-1,
 *   AUTH-7).
 * - The 411 is JSON (GEN-1, GEN-5) in the common envelope (ERR-1): type `invalid_request_error`,
 *   one of the document's types (ERR-2; 411 is not in the document's status table), code
 *   `length_required`, param and path null; a 4xx, never 5xx or 429 (GEN-3); not 422 (ERR-4).
 * - Limits: a refused request reaches no limiter and carries no X-RateLimit-* headers; they are
 *   sent "generally" (RATE-1, a SHOULD), and not counting a request is never an early 429 (RATE-7).
 * - `Connection: close` after 400, 411 and 413 (RFC 9112 9.3: either side may close a persistent
 *   connection; 9.6: a server that sends `close` closes after that response). Every such response
 *   is complete and says it closes, so a client reuses no closed connection; the rest of a request
 *   body is read before the response goes out, so no reset can overtake it.
 */

/** httpd.h, ap_status_drops_connection: statuses after which Apache closes the connection. */
const DROPS_CONNECTION = new Set([400, 408, 411, 413, 414, 500, 501, 503]);
/** The path Apache's 411 is served at inside this process (never a documented path). */
const LENGTH_REQUIRED = '/__apache/length-required';

/** Reads and discards what is left of a request's body (Apache's lingering close), so that closing cannot reset the connection under the response. */
function drained(raw: IncomingMessage): Promise<void> {
  if (raw.complete || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    raw.once('end', () => resolve());
    raw.once('close', () => resolve());
    raw.once('error', () => resolve());
    raw.resume();
  });
}

export default defineVariant({
  description:
    'served by Apache httpd with mod_wsgi defaults: a request with a chunked body is refused with 411 Length Required (JSON envelope) before authentication and rate limiting, and every 400, 411 or 413 closes its connection (Connection: close)',
  openPoint: 'http-transport',
  atRisk: [
    'SUB-1',
    'SUB-2',
    'SUB-3',
    'SUB-5',
    'KEY-1',
    'KEY-2',
    'KEY-8',
    'ERR-3',
    'ERR-7',
    'GEN-4',
    'GEN-1',
    'ERR-1',
    'ERR-2',
    'AUTH-1',
    'AUTH-7',
    'RATE-1',
    'RATE-7',
    'RATE-8',
  ],
  modify: ({ app }) => {
    /** The method each refused request was sent with, for Apache's message. */
    const refused = new WeakMap<IncomingMessage, string>();

    // Apache's core: before the WSGI application (its routing, authentication and rate limiting) is called.
    app.server.prependListener('request', (req: IncomingMessage) => {
      if (req.headers['transfer-encoding'] === undefined) return;
      refused.set(req, req.method ?? 'POST');
      req.url = LENGTH_REQUIRED;
    });
    void app.register(async (apache) => {
      apache.removeAllContentTypeParsers();
      apache.addContentTypeParser('*', (_req, _payload, done) => done(null));
      apache.all(LENGTH_REQUIRED, async (req, reply) => {
        const method = refused.get(req.raw) ?? req.method;
        return sendError(reply, 411, 'invalid_request_error', `A request of the requested method ${method} requires a valid Content-length.`, {
          code: 'length_required',
        });
      });
    });
    // ap_status_drops_connection, for the application's responses as for Apache's own.
    app.addHook('onSend', async (req, reply, payload) => {
      if (!DROPS_CONNECTION.has(reply.statusCode)) return payload;
      await drained(req.raw);
      reply.header('connection', 'close');
      return payload;
    });
  },
});
