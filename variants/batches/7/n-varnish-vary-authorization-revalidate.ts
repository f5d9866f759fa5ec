import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: Varnish Cache (6.x/7.x) in front of an authenticated JSON API,
 * set up with the usual recipe for per-user content: the builtin
 * `vcl_recv` rule that passes every request with an Authorization header is removed, and the
 * backend partitions its responses itself with `Vary: Authorization` (Varnish stores one variant
 * per Vary value and never hands one variant to a request whose Authorization differs). The
 * backend (Django with ConditionalGetMiddleware, which sets a quoted MD5 of the content as ETag)
 * puts a strong ETag, a digest of the body, on every GET 200 and answers a matching If-None-Match
 * with 304. It sends `Cache-Control: max-age=0, must-revalidate`, so Varnish's TTL is 0 and, with
 * `beresp.keep` set, every request is a conditional fetch from the backend carrying the stored
 * object's ETag (Varnish 4+ backend revalidation): the backend authenticates and counts that
 * request like any other, and answers 304 when the body is unchanged, and Varnish delivers its
 * stored copy. Varnish adds `Age` (0 after a revalidation), `Via: 1.1 varnish (Varnish/7.5)` and
 * `X-Varnish` (this transaction's id, and the id of the stored object's when one was used), answers
 * a client's own If-None-Match against the delivered object's ETag (weak comparison, 304 to GET and
 * HEAD), and its `vcl_deliver` writes an RFC 9211 `Cache-Status`: `fwd=uri-miss; stored` for a URL
 * never seen, `fwd=vary-miss; stored` for a URL seen with other credentials, `fwd=stale;
 * fwd-status=304` for a revalidated copy, `fwd=stale; fwd-status=200; stored` for a replaced one.
 * Errors (401, 404, 422, 429) are delivered as the backend made them and never stored; a
 * successful POST or DELETE invalidates the stored variants of its URL (RFC 9111 4.4).
 * `http_range_support` is off, and `Accept-Encoding` is in Vary only to keep any gzip variant a
 * downstream cache makes apart (the origin sends identity). Here the cache keeps, per URL and per Authorization (hashed), the
 * ETag it last stored; the origin's bytes are what it delivers, identical to the stored copy
 * whenever the ETags agree.
 *
 * Why it is conformant:
 * - Every request reaches the origin: authentication, the key's revocation, the rate windows and
 *   the last use are the reference's (Authentication 1..7, AUTH-1..AUTH-8, KEY-5, KEY-7, RATE-1..
 *   RATE-9): a revoked key is 401 at once even though its 200s were stored, because the stored copy
 *   is only ever delivered after the origin said 304 to this very request (RFC 9111 4.3.3, 4.3.4).
 * - No key is served another's content: the stored variant is selected by the request's
 *   Authorization (RFC 9111 4.1, `Vary: Authorization`), and a variant is delivered only after the
 *   origin validated it for this request's key (Authentication 4; AUTH-6).
 * - `max-age=0, must-revalidate` is what RFC 9111 3.5 asks of a response to an authenticated
 *   request that a shared cache may store ("must-revalidate ... permits a shared cache to reuse a
 *   response to a request containing an Authorization header field", 5.2.2.2), and it makes every
 *   cache in the path revalidate before each use (4.2, 5.2.2.2), so none can show stale data or
 *   outlive a revocation. The key creation (POST) is never stored (9111 3: not a cacheable
 *   method here), so no secret is kept (KEY-4).
 * - Without If-None-Match, status and body are the reference's byte for byte, plus ETag, Vary,
 *   Cache-Control, Age, Via, X-Varnish and Cache-Status (open point `http-transport`: the document
 *   states no HTTP caching). RES-*, PAG-*, SUB-*, ERR-* see the reference.
 * - A 304 (RFC 9110 15.4.5, 13.1.2: weak comparison, `*` matches) has no content, so no
 *   Content-Type, for the same reason GEN-1 exempts 204 and HEAD (RFC 9110 6.4.1); it carries
 *   ETag, Vary, Cache-Control, Date and the X-RateLimit-* of this request (RATE-1, RATE-2). Only
 *   a client that sends If-None-Match ever gets one.
 * - `Age: 0` is true (RFC 9111 5.1: the copy was validated at the origin by this request), and
 *   `Date` is the origin's for this request.
 */

const MAX_URLS = 10_000;
const VIA = '1.1 varnish (Varnish/7.5)';

interface Stored {
  readonly etag: string;
  readonly xid: number;
}

const single = (value: string | string[] | undefined): string => (value === undefined ? '' : Array.isArray(value) ? value.join(', ') : value);

/** RFC 9110 8.8.3.2 weak comparison of If-None-Match's members with the current tag; `*` matches any. */
function noneMatchFails(field: string, etag: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return field.split(',').some((member) => member.trim() === '*' || opaque(member) === opaque(etag));
}

export default defineVariant({
  description:
    'Varnish in front, configured for per-key content: GET 200s carry a strong ETag, Vary: Authorization, Accept-Encoding and Cache-Control: max-age=0, must-revalidate; every request is revalidated at the origin (which authenticates and counts it) before a stored copy is used; responses carry Age: 0, Via, X-Varnish and an RFC 9211 Cache-Status, and a client If-None-Match that matches gets 304',
  openPoint: 'http-transport',
  atRisk: ['GEN-1', 'GEN-5', 'RATE-1', 'RATE-2', 'KEY-4', 'KEY-5', 'AUTH-6', 'RES-7', 'PAG-8'],
  modify: ({ app }) => {
    const cache = new Map<string, Map<string, Stored>>();
    let xid = 32768;
    const variantOf = (req: FastifyRequest) =>
      createHash('sha256')
        .update(`${single(req.headers.authorization)}\n${single(req.headers['accept-encoding'])}`)
        .digest('hex');

    // Registered after the reference's hooks: the origin's answer is complete (Date, X-RateLimit-*).
    app.addHook('onSend', async (req, reply, payload) => {
      if (!req.url.startsWith('/api/')) return payload;
      xid += 2;
      reply.header('via', VIA);
      reply.header('age', '0');
      const status = reply.statusCode;
      const cacheable = req.method === 'GET' || req.method === 'HEAD';
      if (!cacheable) {
        // RFC 9111 4.4: a non-error answer to an unsafe method invalidates its target URI.
        if (status < 400) cache.delete(req.url);
        reply.header('x-varnish', String(xid));
        reply.header('cache-status', 'varnish; fwd=method');
        return payload;
      }
      const variants = cache.get(req.url);
      const variant = variantOf(req);
      if (status !== 200 || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) {
        // Delivered as the origin made it; a stored variant the origin no longer confirms is dropped.
        const fwd = variants?.has(variant) ? 'stale' : variants ? 'vary-miss' : 'uri-miss';
        variants?.delete(variant);
        reply.header('x-varnish', String(xid));
        reply.header('cache-status', `varnish; fwd=${fwd}; fwd-status=${status}`);
        return payload;
      }
      const etag = `"${createHash('md5').update(payload).digest('hex')}"`;
      reply.header('etag', etag);
      reply.header('cache-control', 'max-age=0, must-revalidate');
      reply.header('vary', 'Authorization, Accept-Encoding');
      const stored = variants?.get(variant);
      const entries = variants ?? new Map<string, Stored>();
      if (stored && stored.etag === etag) {
        // The origin's 304 to the cache's conditional fetch: the stored copy (the same bytes) is delivered.
        reply.header('x-varnish', `${xid} ${stored.xid}`);
        reply.header('cache-status', 'varnish; fwd=stale; fwd-status=304');
      } else {
        reply.header('x-varnish', String(xid));
        reply.header('cache-status', `varnish; fwd=${stored ? 'stale; fwd-status=200' : variants ? 'vary-miss' : 'uri-miss'}; stored`);
        entries.set(variant, { etag, xid });
      }
      // Least recently used last; the oldest URLs go first when the store is full.
      cache.delete(req.url);
      cache.set(req.url, entries);
      for (const oldest of cache.keys()) {
        if (cache.size <= MAX_URLS) break;
        cache.delete(oldest);
      }
      const ifNoneMatch = req.headers['if-none-match'];
      if (ifNoneMatch !== undefined && noneMatchFails(single(ifNoneMatch), etag)) {
        reply.code(304);
        reply.removeHeader('content-type');
        // GET: no content. HEAD: Fastify's HEAD handling drops the text and states its length, the 200's.
        return req.method === 'HEAD' ? payload : null;
      }
      return payload;
    });
  },
});
