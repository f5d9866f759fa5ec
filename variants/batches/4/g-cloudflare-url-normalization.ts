import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the API's host is proxied by Cloudflare with the zone's URL
 * normalization settings at "Normalize incoming URLs: on, type Cloudflare" (the default type)
 * and "Normalize URLs to origin: on", which many zones turn on so that the origin's routing and
 * Cloudflare's WAF and Rules see one spelling of a path. Cloudflare then rewrites the path of every
 * request before the origin sees it: the RFC 3986 normalizations (percent-encoded unreserved
 * characters decoded, the hex digits of the remaining percent-encodings upper-cased, dot segments
 * `.` and `..` removed) plus its own additions, of which the one a request-target can carry here
 * is that runs of slashes are merged into one. (Its other addition, backslashes made slashes, is
 * not modelled: a raw backslash is not valid in a request-target, and this origin's HTTP parser
 * refuses it before any listener, exactly as the reference's does.) The query string is forwarded
 * as sent. An Envoy edge with `normalize_path: true` and `merge_slashes: true` forwards the same
 * normalized paths. Responses pass
 * through with Cloudflare's own headers: `server: cloudflare`, a `cf-ray` id and
 * `cf-cache-status: DYNAMIC` (not eligible for Cloudflare's cache, so always from the origin).
 *
 * Why it is conformant:
 * - Every path the document names (Endpoints; the profile's paths) is already in normal form, so
 *   every documented request reaches the same route with the same id and query as in the reference,
 *   and gets the same status, body and X-RateLimit-* headers. `{id}` segments are untouched unless
 *   they hold `%XX` escapes of unreserved characters, and RFC 3986 6.2.2.2 makes `%41` and `A`
 *   the same URI (RFC 9110 4.2.3 applies that to http and https URIs), so either spelling names
 *   the same record. `%2F` (a reserved character) stays encoded: no id ever becomes two segments.
 * - Removing dot segments is what RFC 3986 5.2.4 does when a reference is resolved; a WHATWG URL
 *   client (fetch) sends `/api/v1/x/../records` as `/api/v1/records` already. A request that
 *   names a documented endpoint through `..` is that endpoint; `/api/v1/../v2/records` is
 *   `/api/v2/records`, which is not served as v1 (GEN-2).
 * - `/api/v1//records` is a spelling the document does not define, and one RFC 3986 does not
 *   make equal to `/api/v1/records` (an empty segment is a segment). An
 *   origin server owns its URI space (RFC 9110 4.2.3, 7.1) and may serve one resource under
 *   several URIs; the reading taken is that ERR-8's "unknown path" is a path the server maps to
 *   no resource, which these are not. Every path that names nothing after normalization is still
 *   404 `not_found_error` with the envelope (ERR-8), after authentication as in the reference.
 * - Authentication and rate limiting are unchanged: the normalized request still carries its
 *   Authorization header and is counted once (RATE-7, RATE-8). `server`, `cf-ray` and
 *   `cf-cache-status` are fields any server may add (RFC 9110 5.1, 10.2.4).
 */

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** RFC 3986 5.2.4: remove_dot_segments. */
function removeDotSegments(path: string): string {
  let input = path;
  const output: string[] = [];
  while (input.length > 0) {
    if (input.startsWith('../')) input = input.slice(3);
    else if (input.startsWith('./')) input = input.slice(2);
    else if (input.startsWith('/./')) input = input.slice(2);
    else if (input === '/.') input = '/';
    else if (input.startsWith('/../')) {
      input = input.slice(3);
      output.pop();
    } else if (input === '/..') {
      input = '/';
      output.pop();
    } else if (input === '.' || input === '..') input = '';
    else {
      const next = input.indexOf('/', input.startsWith('/') ? 1 : 0);
      const segment = next === -1 ? input : input.slice(0, next);
      output.push(segment);
      input = next === -1 ? '' : input.slice(next);
    }
  }
  return output.join('');
}

/** Cloudflare's normalization of a path (type "Cloudflare"). */
function normalizePath(path: string): string {
  const escapes = path.replace(/%([0-9A-Fa-f]{2})/g, (_match, hex: string) => {
    const ch = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
  const merged = escapes.replace(/\/{2,}/g, '/');
  return removeDotSegments(merged) || '/';
}

export default defineVariant({
  description:
    'behind Cloudflare with URL normalization (type Cloudflare) applied to the origin: unreserved %XX decoded, other escapes upper-cased, dot segments removed, repeated slashes merged; server: cloudflare, cf-ray and cf-cache-status: DYNAMIC added',
  openPoint: 'http-transport',
  atRisk: ['ERR-8', 'GEN-2', 'GEN-1', 'ERR-5', 'ERR-9', 'RES-4', 'AUTH-1', 'AUTH-6'],
  modify: ({ app }) => {
    // The edge: before the service (its routing and authentication) reads the request.
    app.server.prependListener('request', (req: IncomingMessage) => {
      const url = req.url;
      if (url === undefined || !url.startsWith('/')) return;
      const at = url.indexOf('?');
      const path = at === -1 ? url : url.slice(0, at);
      const query = at === -1 ? '' : url.slice(at);
      req.url = normalizePath(path) + query;
    });
    const colo = 'AMS';
    app.addHook('onSend', async (_req, reply, payload) => {
      reply.header('server', 'cloudflare');
      reply.header('cf-ray', `${randomBytes(8).toString('hex')}-${colo}`);
      reply.header('cf-cache-status', 'DYNAMIC');
      return payload;
    });
  },
});
