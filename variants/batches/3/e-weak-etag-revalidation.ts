import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { defineVariant } from '../../variant.js';
/*
 * Where this happens in the field: Express's default `etag` setting ('weak') stamps every GET/HEAD
 * body it sends with a weak validator `W/"<length hex>-<sha1 base64, 27 chars>"` and answers a
 * matching If-None-Match with 304; @fastify/etag (`weak: true`), Spring's
 * ShallowEtagHeaderFilter and ASP.NET output caching do the same from the body bytes. Teams put it
 * in their own middleware (or keep it from an Express BFF in front of the service) so that polling
 * clients revalidate lists cheaply, and pair it, as GitHub's REST API does, with
 * `Cache-Control: private, ...` and `Vary: Authorization`. Here the pairing is
 * `Cache-Control: private, no-cache`: a cache may keep the body but must ask the origin every time.
 *
 * Why it is conformant:
 * - Only GET/HEAD responses with a 2xx status get a validator, computed over the exact bytes of the
 *   JSON body; the body itself, its status and every documented header are the service's.
 * - If-None-Match is evaluated as RFC 9110 13.1.2 and 13.2.2 say: only when the response would
 *   otherwise be 2xx, with the weak comparison, `*` matching any current representation; a match on
 *   GET gives 304 Not Modified (15.4.5) carrying ETag, Cache-Control, Vary, Date and the rate-limit
 *   headers, without Content-Type or Content-Length (8.6: a 304 must not send a Content-Length other
 *   than the 200's). On HEAD the validator is sent but no 304 is made (13.1.2 says SHOULD). A request
 *   with `Cache-Control: no-cache` always gets the full 200, as Express's `fresh` does. The 304
 *   stands for the JSON representation the client already holds, so "Responses are always JSON"
 *   (What the service does, rule 4) still holds: the reading taken is that a 304 has no content of
 *   its own, like the 204 and HEAD exemptions of the same rule. A client that never sends
 *   If-None-Match (the document describes no conditional requests) sees only three more headers.
 * - The validator is computed after authentication and rate limiting, per request: a 304 is
 *   counted against the key like any other request (X-RateLimit-Remaining still falls by one), a
 *   revoked key still gets 401 (errors get no validator and preconditions are ignored on them,
 *   RFC 9110 13.2.1), and a 304 is given only when this key's own representation has exactly that
 *   tag, so it is correct per key and per account.
 * - `private` keeps shared caches out (RFC 9111 5.2.2.7; they may not reuse Authorization
 *   responses anyway, 3.5), `no-cache` makes every reuse a revalidation at the origin (5.2.2.4), so
 *   no client is ever served a stale key list, last-use time or page; `Vary: Authorization` keys any
 *   private cache by the key in use.
 * - The tag is a truncated SHA-1 of the body: it carries nothing the body does not, and the key
 *   creation (a POST) gets none, so the secret appears nowhere but in that one response.
 */

/** Express's weak validator (the `etag` package): `W/"<length hex>-<sha1 base64, 27 chars>"`. */
function weakEtag(body: Buffer): string {
  const hash = createHash('sha1').update(body).digest('base64').substring(0, 27);
  return `W/"${body.length.toString(16)}-${hash}"`;
}

/** RFC 9110 13.1.2: does If-None-Match match `etag` by the weak comparison (or `*`)? */
function noneMatchHits(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = [header].flat().join(',');
  if (value.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  // entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE; etagc may itself contain a comma.
  for (const match of value.matchAll(/(?:W\/)?("[\x21\x23-\x7E\x80-\xFF]*")/g)) {
    if (match[1] === opaque) return true;
  }
  return false;
}

/** A request that asks not to be answered from a stored response (Express's `fresh`). */
function requestNoCache(header: string | string[] | undefined): boolean {
  return header !== undefined && /(?:^|,)\s*no-cache\s*(?:,|$)/i.test([header].flat().join(','));
}

/** Adds `name` to Vary unless it (or `*`) is already there. */
function addVary(reply: FastifyReply, name: string): void {
  const current = reply.getHeader('vary');
  const values =
    current === undefined
      ? []
      : String(current)
          .split(',')
          .map((v) => v.trim())
          .filter((v) => v !== '');
  if (values.some((v) => v === '*' || v.toLowerCase() === name.toLowerCase())) return;
  reply.header('vary', [...values, name].join(', '));
}

export default defineVariant({
  description:
    'stamps every successful GET/HEAD body with an Express-style weak ETag, Cache-Control: private, no-cache and Vary: Authorization, and answers a GET whose If-None-Match matches with 304 Not Modified',
  openPoint: 'http-transport',
  atRisk: ['GEN-1', 'GEN-5', 'RES-4', 'RES-7', 'PAG-1', 'KEY-3', 'KEY-4', 'KEY-7', 'RATE-8'],
  modify: ({ app }) => {
    app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return payload;
      if (reply.statusCode < 200 || reply.statusCode > 299) return payload;
      const body = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : null;
      if (body === null) return payload;
      const etag = weakEtag(body);
      reply.header('etag', etag);
      if (reply.getHeader('cache-control') === undefined) reply.header('cache-control', 'private, no-cache');
      addVary(reply, 'Authorization');
      // HEAD: the validator only (Fastify's HEAD route strips the body after this hook).
      if (req.method !== 'GET') return payload;
      if (!noneMatchHits(req.headers['if-none-match'], etag) || requestNoCache(req.headers['cache-control'])) return payload;
      reply.code(304);
      reply.removeHeader('content-type');
      reply.removeHeader('content-length');
      return null;
    });
  },
});
