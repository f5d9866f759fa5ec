import { errorBody } from '../../../reference/errors.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: nginx as the reverse proxy of a JSON API with
 * `proxy_force_ranges on;` and `max_ranges 1;`, a setup used in front of APIs that serve large
 * exports or pages so that an interrupted download can be resumed (and the one that nginx's
 * slice-module and proxy_cache deployments end up with). nginx's range filter
 * (ngx_http_range_filter_module) then handles byte ranges for proxied 200 responses whose length
 * is known: it advertises `Accept-Ranges: bytes`, answers a single satisfiable `Range: bytes=...`
 * with 206 Partial Content and `Content-Range: bytes first-last/length`, processes a request with
 * more ranges than `max_ranges` "as if no byte ranges were specified" (a plain 200), answers a
 * range that starts past the end with 416 and a Content-Range naming only the length (here through an
 * `error_page 416` location that writes the API's JSON error envelope), and honours `If-Range`
 * only when it equals the response's ETag or Last-Modified: this API sends neither, so a request
 * with If-Range gets the whole representation. Ranges apply to GET only (HEAD and other methods
 * are untouched) and to 200 responses only (errors are whole). Unlike nginx, which answers 416 to
 * a `bytes=` value it cannot parse, a malformed range set is ignored here (a plain 200).
 *
 * Why it is conformant:
 * - Range requests are optional for a server and optional for a client (RFC 9110 14: a server MAY
 *   ignore Range, 14.2; a server that supports it SHOULD answer a satisfiable single range with
 *   206, 14.2 and 15.3.7). A request without `Range` is answered exactly as by the reference, plus
 *   `Accept-Ranges: bytes` on GET and HEAD 200s (14.3). So every response the document describes
 *   is unchanged: the statuses of the Operations table (200 for every list), the pagination
 *   envelope, the errors, the X-RateLimit-* headers (GEN-*, RES-*, PAG-*, ERR-*, RATE-*).
 * - A client that asks for bytes 0-99 of a representation asks for part of it, and gets exactly
 *   that part (15.3.7.1: single part, the representation's Content-Type, Content-Range naming the
 *   part and the whole length): the representation is still the JSON document the API defines
 *   ("Responses are always JSON"); a 206's content is a byte range of it, the way a resumed
 *   download is. GEN-1 reads bodies as JSON: a run that sends no Range never meets a 206.
 * - Multiple ranges are "processed as if no byte ranges were specified" (RFC 9110 14.2: a server
 *   MAY ignore a Range), as are other units ("an origin server MUST ignore a Range header field
 *   that contains a range unit it does not understand") and malformed values ("MAY ignore or
 *   reject ... an invalid ranges-specifier").
 * - If-Range with no validator to match: "If the validator does not match, the server MUST ignore
 *   the Range header field" (13.1.5), so the whole 200.
 * - 416 (15.5.17) carries the unsatisfied-range Content-Range (14.4: the star, then the length) and a JSON body in the error envelope,
 *   type `invalid_request_error` (one of the document's types; 416 is not among the statuses its
 *   table ties to types, ERR-2), code `range_not_satisfiable`, param and path null (ERR-1; ERR-4
 *   concerns 422s only).
 * - Authentication and rate limiting come first (the range filter works on the response): a bad
 *   key is 401, a spent window 429, whatever Range says; a ranged request counts as one request.
 */

interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** The one satisfiable range asked for, 'unsatisfiable', or null: no Range to apply (none, several, other unit, malformed). */
function parseRange(value: string, length: number): ByteRange | 'unsatisfiable' | null {
  // ranges-specifier = range-unit "=" range-set (RFC 9110 14.1.1): no whitespace around "=".
  const unit = /^\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)=(.*)$/.exec(value);
  if (!unit || unit[1]!.toLowerCase() !== 'bytes') return null;
  const specs = unit[2]!
    .split(',')
    .map((spec) => spec.trim())
    .filter((spec) => spec !== '');
  // max_ranges 1: a request for several ranges is served whole.
  if (specs.length !== 1) return null;
  const spec = /^(\d*)-(\d*)$/.exec(specs[0]!);
  if (!spec || (spec[1] === '' && spec[2] === '')) return null;
  if (spec[1] === '') {
    // suffix-range: the last n bytes (RFC 9110 14.1.2); n = 0 is unsatisfiable (14.1.1).
    const suffix = Number(spec[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, length - suffix), end: length - 1 };
  }
  const first = Number(spec[1]);
  const last = spec[2] === '' ? Number.POSITIVE_INFINITY : Number(spec[2]);
  // last-pos before first-pos makes the range-spec invalid (14.1.1): ignored.
  if (last < first) return null;
  if (first >= length) return 'unsatisfiable';
  return { start: first, end: Math.min(last, length - 1) };
}

export default defineVariant({
  description:
    'nginx with proxy_force_ranges and max_ranges 1 in front: GET 200s advertise Accept-Ranges: bytes; one satisfiable byte range is answered 206 with Content-Range and that slice of the JSON, several ranges, other units, malformed values and If-Range (no validator to match) get the whole 200, a range past the end gets 416 with an unsatisfied-range Content-Range and a JSON invalid_request_error',
  openPoint: 'http-transport',
  atRisk: ['GEN-1', 'GEN-5', 'ERR-1', 'ERR-2', 'PAG-1', 'RES-4', 'RES-7'],
  modify: ({ app }) => {
    app.addHook('onSend', async (req, reply, payload) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || reply.statusCode !== 200 || !req.url.startsWith('/api/')) return payload;
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
      reply.header('accept-ranges', 'bytes');
      const asked = req.headers.range;
      if (req.method !== 'GET' || typeof asked !== 'string') return payload;
      // No ETag, no Last-Modified: an If-Range validator never matches (RFC 9110 13.1.5).
      if (req.headers['if-range'] !== undefined) return payload;
      const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload, 'utf8');
      const range = parseRange(asked, body.length);
      if (range === null) return payload;
      if (range === 'unsatisfiable') {
        reply.code(416);
        reply.header('content-range', `bytes */${body.length}`);
        reply.header('content-type', 'application/json; charset=utf-8');
        return JSON.stringify(
          errorBody('invalid_request_error', `The requested range is not satisfiable: the representation is ${body.length} bytes long.`, {
            code: 'range_not_satisfiable',
          }),
        );
      }
      reply.code(206);
      reply.header('content-range', `bytes ${range.start}-${range.end}/${body.length}`);
      return body.subarray(range.start, range.end + 1);
    });
  },
});
