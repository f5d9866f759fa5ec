import { createHash } from 'node:crypto';
import { defineVariant } from './variant.js';

/*
 * Written blind (variants/batches/1, a-etag-conditional-get), kept here as the matrix's one target that
 * answers a condition with 304.
 *
 * Where this happens in the field: Rails' default middleware stack (Rack::ETag and
 * Rack::ConditionalGet) tags every 200 response with a weak ETag, a digest of the body, sends
 * `Cache-Control: max-age=0, private, must-revalidate` with it, and answers a GET or HEAD whose
 * If-None-Match names the current tag with 304 Not Modified and no body. The same comes from
 * Express (`etag` on by default, with `req.fresh`), Django's ConditionalGetMiddleware, Spring's
 * ShallowEtagHeaderFilter and ASP.NET output-caching setups. Teams keep it for mobile and
 * integration clients that poll lists: a 304 saves the body. Responses that carry no tag
 * (errors, creations, deletions) are marked `no-store`, since one of them carries a new secret.
 *
 * Why it is conformant: bodies, statuses and headers the document fixes are untouched; a client
 * that sends no If-None-Match (as the document's clients do) sees the reference's answers plus
 * two headers. A 304 only ever answers a conditional GET/HEAD whose tag equals the one the same
 * request would get with 200 now: RFC 9110 13.1.2 (weak comparison for If-None-Match, `*` matches
 * any current representation), 13.2.1 (preconditions evaluated only where the response would be
 * 2xx, after authentication, so 401/403/404/429 are never turned into 304), 15.4.5 (a 304 keeps
 * ETag, Cache-Control and Date, drops representation metadata such as Content-Type, and has no
 * content). A 304 to GET carries no Content-Length; one to HEAD carries the length the GET's
 * content would have had, which RFC 9110 8.6 allows. The tag is a digest of the body the caller's
 * own key would get, so it reveals nothing across keys or accounts, and `private` keeps shared
 * caches from storing anything (RFC 9111 5.2.2.7; requests with Authorization are not stored by
 * shared caches anyway, 3.5). The request still counts against its key's window and its 304
 * carries the X-RateLimit-* headers ("responses generally"). Responses stay JSON: a 304 has no
 * body at all (RFC 9110 6.4.1), it is not a JSON response that fails to parse. No If-Match,
 * If-Modified-Since or If-Range support is added (nothing carries Last-Modified, so the latter are
 * ignored as RFC 9110 13.1.3 and 13.1.5 require).
 */

/** Rack::ETag's tag: a weak validator from a digest of the body. */
function weakTag(body: string | Buffer): string {
  return `W/"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;
}

/** The opaque tags (quotes included) of an If-None-Match value; `*` stands for any. */
function listedTags(header: string): '*' | string[] {
  if (header.trim() === '*') return '*';
  // entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE (RFC 9110 8.8.3); read tag by tag, not by commas,
  // since an opaque tag may itself hold a comma.
  return [...header.matchAll(/(?:W\/)?("[^"]*")/g)].map((m) => m[1]!);
}

/** RFC 9110 13.1.2: If-None-Match is false when any listed tag weakly matches the current one. */
function notModified(header: string | undefined, current: string): boolean {
  if (header === undefined) return false;
  const tags = listedTags(header);
  if (tags === '*') return true;
  const opaque = current.replace(/^W\//, '');
  return tags.includes(opaque);
}

export default defineVariant({
  description:
    'tags every 200 GET/HEAD response with a weak ETag (a digest of the body) and Cache-Control: max-age=0, private, must-revalidate, answers a matching If-None-Match with 304 and no body, and marks all other responses no-store',
  openPoint: 'http-transport',
  atRisk: ['GEN-1', 'GEN-5', 'PAG-1', 'PAG-8', 'RES-7', 'KEY-3', 'KEY-4', 'KEY-7', 'RATE-1', 'RATE-8'],
  modify: ({ app }) => {
    app.addHook('onSend', async (req, reply, payload) => {
      const body = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : null;
      if (body === null || (req.method !== 'GET' && req.method !== 'HEAD') || reply.statusCode !== 200) {
        reply.header('cache-control', 'no-store');
        return payload;
      }
      const tag = weakTag(body);
      reply.header('etag', tag);
      reply.header('cache-control', 'max-age=0, private, must-revalidate');
      if (!notModified(req.headers['if-none-match'], tag)) return payload;
      reply.code(304);
      reply.removeHeader('content-type');
      reply.removeHeader('content-length');
      // GET: no content and no Content-Length (Fastify writes none for a null payload on a 304).
      // HEAD: the payload goes on to Fastify's HEAD handling, which only measures it for a
      // Content-Length equal to the GET's (RFC 9110 8.6); Node sends no body after a 304.
      return req.method === 'HEAD' ? payload : null;
    });
  },
});
