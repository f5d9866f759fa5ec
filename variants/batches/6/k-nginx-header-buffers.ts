import type { IncomingMessage } from 'node:http';
import { sendError } from '../../../reference/errors.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the service sits behind nginx, which runs with its stock
 * `large_client_header_buffers 4 8k;`. nginx reads a request's head into buffers of 8 KiB, and no
 * line of the head may be longer than one buffer: a request line that does not fit is refused with
 * 414 (Request-URI Too Large), a header field line that does not fit with 400 ("Request Header Or
 * Cookie Too Large", nginx's internal 494 sent as 400), and so is a head that needs more than the
 * four buffers (32 KiB). These answers are made while the head is read, so they reach no upstream:
 * no authentication, no rate limiting, no X-RateLimit-* headers, and nginx turns keep-alive off
 * for them (`Connection: close`; ngx_http_special_response_handler drops the connection after a
 * 400 or 414). Teams replace nginx's HTML error pages in the default server (`error_page 414` and
 * `error_page 494` pointing at a location that returns the API's JSON envelope) so that clients get
 * JSON. After a 414 nginx still reads and discards what the client sends of a body before it
 * closes (lingering close); here the rest of any body is read before either answer goes out, so
 * the close never resets the connection under the response. The same figures are the defaults of
 * Kestrel (MaxRequestLineSize 8 KiB) and of Tomcat (maxHttpHeaderSize 8 KiB for the whole head).
 *
 * Why it is conformant:
 * - RFC 9110 4.1: "A server that receives a request-target longer than any URI it wishes to parse
 *   MUST respond with a 414 (URI Too Long) status code"; RFC 9110 5.4: a server that receives a
 *   field line, field value or set of fields larger than it wishes to process "MUST respond with
 *   an appropriate 4xx (Client Error) status code". Both refusals are what the RFCs order, and both
 *   are 4xx, never 5xx or 429 (GEN-3).
 * - The limits are above the RFCs' floors: RFC 9110 4.1 recommends supporting URIs of at least
 *   8000 octets and RFC 9112 3 request lines of at least 8000 octets; here a request line of up to
 *   8192 octets, CRLF included, is served (a URI of up to 8174 octets with the longest method the
 *   API has, DELETE). The document states no URL or header size (Limits: the other limits are "not
 *   shown").
 * - Every request the document describes fits with room to spare: paths under `/api/v1/`, ids and
 *   keys of tens of characters, `page` and `limit` values. So every endpoint, retrieval (RES-4),
 *   authentication rule (AUTH-1..AUTH-8), pagination rule (PAG-*) and missing-resource answer
 *   (ERR-5, ERR-9) is served as by the reference. Only a request whose target or header line
 *   exceeds 8 KiB is refused before it is read: such a target is not interpreted, so it is not a
 *   "missing resource" (Errors, rule 5) but a URI the server does not parse (RFC 9110 4.1, 15.5.15);
 *   such an Authorization line is not a key the service read and judged (Authentication, rule 7)
 *   but a field the server refuses to process (RFC 9110 5.4). No key the API issues (AUTH-5) can be
 *   that long, so no live key is ever refused. The reference itself already answers a path
 *   parameter of more than 8192 characters with a 400 (its router's limit), not a 404.
 * - The answers are JSON (GEN-1, GEN-5) in the common envelope (ERR-1): type
 *   `invalid_request_error`, one of the document's types (ERR-2; 414 and 400 are not in the
 *   document's status table, and the 400's type is not shown), code `uri_too_long` or
 *   `header_too_large`, param and path null. They are not 422 (ERR-4 does not apply).
 * - Limits: a refused request reaches no limiter, so it spends no budget and carries no
 *   X-RateLimit-* headers; the headers are sent "generally" (RATE-1, a SHOULD), and not counting a
 *   request is never an early 429 (RATE-7). Every request that is served is counted as before.
 * - `Connection: close` (RFC 9112 9.6): the server closes after the response that says so; HTTP/1.1
 *   lets either side close a connection (RFC 9112 9.3). What the client still sends of a body is
 *   read and discarded first, so the response is never lost to a reset. Every request the server
 *   serves keeps its connection as before.
 */

/** One of nginx's large header buffers: no line of the head may be longer. */
const LINE_LIMIT = 8 * 1024;
/** All four of them: the most a head may take. */
const HEAD_LIMIT = 4 * LINE_LIMIT;
/** Node's own limit on a head (16 KiB by default, answered with Fastify's 431) is raised above nginx's, so that nginx's limits are the ones met. */
const NODE_HEAD_LIMIT = 64 * 1024;
/** The path nginx's refusals are served at inside this process (never a documented path). */
const REFUSED = '/__nginx/large-client-header';

interface Refusal {
  readonly status: 414 | 400;
  readonly code: string;
  readonly message: string;
}

/** What nginx makes of a request's head, as Node parsed it (a field line counted as `name: value` CRLF). */
function refusal(req: IncomingMessage): Refusal | null {
  const requestLine = `${req.method ?? ''} ${req.url ?? ''} HTTP/${req.httpVersion}\r\n`.length;
  if (requestLine > LINE_LIMIT) {
    return { status: 414, code: 'uri_too_long', message: `Request-URI Too Large: the request line is longer than ${LINE_LIMIT} bytes.` };
  }
  let head = requestLine + 2;
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const line = req.rawHeaders[i]!.length + 2 + req.rawHeaders[i + 1]!.length + 2;
    if (line > LINE_LIMIT) {
      return { status: 400, code: 'header_too_large', message: `Request Header Or Cookie Too Large: a header field line is longer than ${LINE_LIMIT} bytes.` };
    }
    head += line;
  }
  if (head > HEAD_LIMIT) {
    return { status: 400, code: 'header_too_large', message: `Request Header Or Cookie Too Large: the request head is larger than ${HEAD_LIMIT} bytes.` };
  }
  return null;
}

/** Reads and discards what is left of a request's body (nginx's lingering close), so that closing cannot reset the connection under the response. */
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
    "behind nginx with its default large_client_header_buffers 4 8k: a request line longer than 8 KiB is refused with 414, a header field line longer than 8 KiB (or a head over 32 KiB) with 400, both in the API's JSON envelope, before authentication and rate limiting, with Connection: close",
  openPoint: 'http-transport',
  atRisk: ['RES-4', 'ERR-5', 'ERR-9', 'ERR-8', 'GEN-2', 'AUTH-2', 'AUTH-3', 'AUTH-7', 'ERR-1', 'ERR-2', 'GEN-1', 'GEN-3', 'PAG-10', 'RATE-1', 'RATE-8'],
  modify: ({ app }) => {
    (app.server as { maxHeaderSize?: number }).maxHeaderSize = NODE_HEAD_LIMIT;
    const refused = new WeakMap<IncomingMessage, Refusal>();

    // nginx: before the service (its routing, authentication and rate limiting) sees anything.
    app.server.prependListener('request', (req: IncomingMessage) => {
      const found = refusal(req);
      if (!found) return;
      refused.set(req, found);
      req.url = REFUSED;
    });
    // nginx answers from the head alone: a body is neither parsed nor judged, only discarded.
    void app.register(async (edge) => {
      edge.removeAllContentTypeParsers();
      edge.addContentTypeParser('*', (_req, _payload, done) => done(null));
      edge.all(REFUSED, async (req, reply) => {
        const found = refused.get(req.raw) ?? { status: 400, code: 'header_too_large', message: 'Request Header Or Cookie Too Large.' };
        await drained(req.raw);
        reply.header('connection', 'close');
        return sendError(reply, found.status, 'invalid_request_error', found.message, { code: found.code });
      });
    });
  },
});
