import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the service is a Flask application served by gunicorn, the
 * most common way of running Python APIs in containers. A WSGI application hands its server a
 * status *line*, code and reason phrase together, and gunicorn writes it to the wire as given.
 * Flask builds its responses with Werkzeug, whose `Response.status` setter, given a bare code
 * (`return jsonify(...), 201`), looks the phrase up in `werkzeug.http.HTTP_STATUS_CODES` and
 * upper-cases it (`_clean_status`: f"{status_code} {HTTP_STATUS_CODES[status_code].upper()}").
 * So every Flask API answers `HTTP/1.1 201 CREATED`, `HTTP/1.1 204 NO CONTENT`,
 * `HTTP/1.1 404 NOT FOUND`, `HTTP/1.1 422 UNPROCESSABLE ENTITY`, `HTTP/1.1 429 TOO MANY REQUESTS`,
 * with Werkzeug's older wording where it differs from RFC 9110's (`413 REQUEST ENTITY TOO LARGE`,
 * `414 REQUEST URI TOO LONG`). gunicorn adds `Server: gunicorn`. The table below is Werkzeug
 * 3.1's, upper-cased as Werkzeug does; a code it lacks would read `UNKNOWN`, as in Werkzeug.
 *
 * Why it is conformant:
 * - RFC 9112 4: the status line is `HTTP-version SP status-code SP [ reason-phrase ]`; the
 *   reason-phrase "exists for the sole purpose of providing a textual description associated with
 *   the numeric status code", and "A client SHOULD ignore the reason-phrase content because it is
 *   not a reliable channel for information (it might be translated for a given locale, overwritten
 *   by intermediaries, or discarded when the message is forwarded via other versions of HTTP)".
 *   RFC 9110 15: a status code's meaning is its number; HTTP/2 and HTTP/3 carry no phrase at all.
 *   Upper-case letters and spaces are VCHAR and SP, valid phrase characters.
 * - The document speaks only of statuses as numbers (Operations: 200, 201; Errors: 400, 401, 403,
 *   404, 422, 429, 500), and rule 4 of Errors has clients check "the HTTP status first": every
 *   status code, header and body is the reference's, so every clause that reads a status (SUB-1,
 *   KEY-1, KEY-5, ERR-2, ERR-3, ERR-5, PAG-3, PAG-4, RATE-3, AUTH-1, ...) sees the same number.
 * - `Server: gunicorn` (RFC 9110 10.2.4) names a product: nothing of a key (KEY-4), nothing the
 *   document forbids.
 */

/** werkzeug.http.HTTP_STATUS_CODES (Werkzeug 3.1), final statuses, upper-cased as Werkzeug's `_clean_status` does. */
const WERKZEUG_PHRASES: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'CREATED',
  202: 'ACCEPTED',
  203: 'NON AUTHORITATIVE INFORMATION',
  204: 'NO CONTENT',
  205: 'RESET CONTENT',
  206: 'PARTIAL CONTENT',
  207: 'MULTI STATUS',
  208: 'ALREADY REPORTED',
  226: 'IM USED',
  300: 'MULTIPLE CHOICES',
  301: 'MOVED PERMANENTLY',
  302: 'FOUND',
  303: 'SEE OTHER',
  304: 'NOT MODIFIED',
  305: 'USE PROXY',
  306: 'SWITCH PROXY',
  307: 'TEMPORARY REDIRECT',
  308: 'PERMANENT REDIRECT',
  400: 'BAD REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT FOUND',
  405: 'METHOD NOT ALLOWED',
  406: 'NOT ACCEPTABLE',
  407: 'PROXY AUTHENTICATION REQUIRED',
  408: 'REQUEST TIMEOUT',
  409: 'CONFLICT',
  410: 'GONE',
  411: 'LENGTH REQUIRED',
  412: 'PRECONDITION FAILED',
  413: 'REQUEST ENTITY TOO LARGE',
  414: 'REQUEST URI TOO LONG',
  415: 'UNSUPPORTED MEDIA TYPE',
  416: 'REQUESTED RANGE NOT SATISFIABLE',
  417: 'EXPECTATION FAILED',
  418: "I'M A TEAPOT",
  421: 'MISDIRECTED REQUEST',
  422: 'UNPROCESSABLE ENTITY',
  423: 'LOCKED',
  424: 'FAILED DEPENDENCY',
  425: 'TOO EARLY',
  426: 'UPGRADE REQUIRED',
  428: 'PRECONDITION REQUIRED',
  429: 'TOO MANY REQUESTS',
  431: 'REQUEST HEADER FIELDS TOO LARGE',
  449: 'RETRY WITH',
  451: 'UNAVAILABLE FOR LEGAL REASONS',
  500: 'INTERNAL SERVER ERROR',
  501: 'NOT IMPLEMENTED',
  502: 'BAD GATEWAY',
  503: 'SERVICE UNAVAILABLE',
  504: 'GATEWAY TIMEOUT',
  505: 'HTTP VERSION NOT SUPPORTED',
  506: 'VARIANT ALSO NEGOTIATES',
  507: 'INSUFFICIENT STORAGE',
  508: 'LOOP DETECTED',
  510: 'NOT EXTENDED',
  511: 'NETWORK AUTHENTICATION FAILED',
};

export default defineVariant({
  description:
    "a Flask application under gunicorn: the status line carries Werkzeug's upper-cased reason phrases (201 CREATED, 204 NO CONTENT, 422 UNPROCESSABLE ENTITY, 429 TOO MANY REQUESTS, 413 REQUEST ENTITY TOO LARGE), with Server: gunicorn",
  openPoint: 'http-transport',
  atRisk: ['SUB-1', 'KEY-1', 'KEY-5', 'ERR-2', 'ERR-3', 'ERR-5', 'PAG-3', 'PAG-4', 'RATE-3', 'RATE-4', 'AUTH-1', 'GEN-1'],
  modify: ({ app }) => {
    // Node writes `statusMessage` as the reason phrase when the reply's head goes out (Fastify passes none of its own).
    app.addHook('onSend', async (_req, reply, payload) => {
      reply.raw.statusMessage = WERKZEUG_PHRASES[reply.statusCode] ?? 'UNKNOWN';
      reply.header('server', 'gunicorn');
      return payload;
    });
  },
});
