import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, sendError } from '../../../reference/errors.js';
import type { ReferenceState } from '../../../reference/state.js';
import type { ApiKeyRecord } from '../../../reference/store.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: ASP.NET Core with endpoint routing, the JwtBearer (or an
 * ApiKey) authentication handler, `[Authorize]` on the API controllers and no FallbackPolicy,
 * in the usual pipeline order `UseRouting(); UseRateLimiter(); UseAuthentication();
 * UseAuthorization(); MapControllers();`. Routing picks the endpoint before authorisation looks at
 * it. When a path matches but no endpoint accepts the method, HttpMethodMatcherPolicy selects its
 * synthesised "405 HTTP Method Not Supported" endpoint, which carries no metadata: no
 * IAuthorizeData, so the AuthorizationMiddleware has nothing to enforce and never challenges, and
 * the client gets 405 with `Allow`, with or without a key, whatever key. Authentication still runs
 * (UseAuthentication authenticates every request with the default scheme, without challenging),
 * so a live key is known, and the global rate limiter (a PartitionedRateLimiter keyed by the key,
 * or by the IP address for a request without an Authorization header) still counts the request.
 * Here: a request under /api/ whose path the service routes, with a method the path does not
 * support, is answered 405 `invalid_request_error` (the reference's body, code
 * `method_not_allowed`, with `Allow`) before any 401: without a header it is counted in the IP
 * window (429 past it, as any request without a header); with a live key it is counted in the key's
 * window and sets the key's last use, as in the reference; with a failed credential it is not
 * counted, as the reference counts no failed credential. A documented endpoint, a path of the
 * profile with a method it serves, and a path that is no endpoint at all are authenticated first
 * exactly as before.
 *
 * Why it is conformant:
 * - Authentication 1 and the Endpoints section: "All endpoints require the Authorization header".
 *   An endpoint is a method and a path (the Operations table lists them so, and the profile's
 *   paths name a method each: GET lists and retrieves, DELETE revokes). Every such endpoint still
 *   answers 401 without or with a bad key (AUTH-1, AUTH-2, AUTH-3, AUTH-7, KEY-5). A method a path
 *   does not support names no endpoint: the document says nothing of how it is answered (the open
 *   point "HEAD, OPTIONS and other methods on the documented paths"), nor whether the missing key
 *   or the method is reported first when both are wrong.
 * - RFC 9110 15.5.6: 405 is the status for a method the target resource does not support, and its
 *   Allow header (10.2.1, a MUST) lists the methods it does; 405 is a client error the document
 *   leaves open, answered in the error envelope (ERR-1), JSON (GEN-1), with a type of the
 *   document's (ERR-2, as the reference's 405). RFC 9110 11.6.1 asks for a challenge only on a
 *   401, and none is sent.
 * - Limits: requests with no Authorization header are still counted per IP address, 20 a window,
 *   whether they end in 401 or 405, and past the ceiling get 429 with Retry-After and the three
 *   headers (RATE-7, RATE-4); requests with a live key are counted against that key (RATE-1,
 *   RATE-2, RATE-8); a failed credential is counted nowhere, as in the reference (RATE-7 allows
 *   both). Answers counted in no window carry no X-RateLimit-* headers, as the reference's 401s for
 *   failed credentials.
 * - Only the service's own routing decides: a path counts as routed when the server would serve it
 *   with some method (the profile's paths included, `{id}` any one segment), so a trailing slash,
 *   another version or an unknown path is still authenticated first and answered 404 (ERR-8, GEN-2)
 *   as in the reference.
 */

/** The methods probed against the router; a request with another method is left to the reference. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
/** Where the 405 endpoint is served inside this process (never a documented path). */
const METHOD_NOT_SUPPORTED = '/__routing/405-method-not-supported';

/** The live key a header names, by the reference's own parsing and lookup (reference/auth.ts). */
function liveKey(state: ReferenceState, header: string): ApiKeyRecord | null {
  const token = /^bearer +(\S+)$/i.exec(header)?.[1];
  if (token === undefined || !token.startsWith(state.store.keyPrefix)) return null;
  const key = state.store.findKey(token);
  if (!key || (key.revokedAtMs !== null && state.now() - key.revokedAtMs >= state.behaviour.revokedGraceMs)) return null;
  return key;
}

/** The global rate limiter: counts the request as the reference would; answers 429 past the ceiling. */
function limit(state: ReferenceState, req: FastifyRequest, reply: FastifyReply, path: string): FastifyReply | null {
  const { limits } = state.profile;
  const header = req.headers.authorization;
  let window;
  if (header === undefined) {
    window = state.limiter.hit(`ip:${req.ip}`, limits.unauthenticatedPerMinute);
  } else {
    const key = liveKey(state, header);
    if (!key) return null;
    window = state.limiter.hit(state.behaviour.rateBucket(key, path), limits.perKeyPerMinute);
    if (!window.exceeded) key.lastUsedAt = new Date(state.now()).toISOString();
  }
  reply.header('x-ratelimit-limit', String(window.limit));
  reply.header('x-ratelimit-remaining', String(window.remaining));
  reply.header('x-ratelimit-reset', String(state.behaviour.resetHeader(window.resetAtMs, state.now())));
  if (!window.exceeded) return null;
  const seconds = state.behaviour.retryAfterSeconds(window.resetAtMs, state.now());
  reply.header('retry-after', String(seconds));
  const body = errorBody('rate_limit_error', `Too many requests. Retry after ${seconds} seconds.`, { code: 'rate_limit_exceeded' });
  delete body.error.path;
  return reply.code(429).send(body);
}

export default defineVariant({
  description:
    'ASP.NET Core endpoint routing with [Authorize] controllers: a method a routed path does not support reaches the metadata-less 405 endpoint, which no authorisation guards, so it is answered 405 with Allow before any 401 (still rate-counted: per IP without a header, per key with a live key)',
  openPoint: 'other-methods',
  atRisk: ['AUTH-1', 'AUTH-2', 'AUTH-3', 'AUTH-7', 'KEY-5', 'GEN-1', 'ERR-1', 'ERR-2', 'RATE-1', 'RATE-7'],
  modify: ({ app, state }) => {
    /** The path and the allowed methods of each request sent to the 405 endpoint. */
    const mismatched = new WeakMap<IncomingMessage, { path: string; allow: string[] }>();

    // Endpoint routing: before authentication and authorisation see the request.
    app.server.prependListener('request', (req: IncomingMessage) => {
      const url = req.url ?? '/';
      const method = req.method ?? '';
      if (!url.startsWith('/api/') || !(METHODS as readonly string[]).includes(method)) return;
      const path = url.split('?')[0]!;
      let allow: string[];
      try {
        allow = METHODS.filter((candidate) => app.findRoute({ method: candidate, url: path }) !== null);
      } catch {
        return; // a path the router cannot read: left to the reference (its own 400)
      }
      if (allow.length === 0 || allow.includes(method)) return;
      mismatched.set(req, { path, allow });
      req.url = METHOD_NOT_SUPPORTED;
    });

    // The 405 endpoint answers from the request line and headers: a body is neither read nor judged.
    void app.register(async (routing) => {
      routing.removeAllContentTypeParsers();
      routing.addContentTypeParser('*', (_req, _payload, done) => done(null));
      routing.all(METHOD_NOT_SUPPORTED, async (req, reply) => {
        const { path, allow } = mismatched.get(req.raw) ?? { path: req.url.split('?')[0]!, allow: [] };
        const limited = limit(state, req, reply, path);
        if (limited) return limited;
        reply.header('allow', allow.join(', '));
        return sendError(reply, 405, 'invalid_request_error', `${req.method} is not supported on ${path}.`, { code: 'method_not_allowed' });
      });
    });
  },
});
