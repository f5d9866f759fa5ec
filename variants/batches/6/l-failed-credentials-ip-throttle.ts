import { errorBody } from '../../../reference/errors.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: GitLab's rate limits, and the many Rails APIs that copy them.
 * GitLab's Rack::Attack throttle `throttle_unauthenticated_api` (Admin > Settings > Network,
 * "Unauthenticated API request rate limit", per IP address) applies to every API request for
 * which `unauthenticated?` holds, and `unauthenticated?` is `!authenticated_identifier(...)`: the
 * throttle itself looks the request's token up (Gitlab::Auth::RequestAuthenticator), and a request
 * whose token is malformed, unknown or revoked identifies nobody, so it is spent from the IP
 * address's unauthenticated budget, the same budget as a request with no token at all. The
 * throttle is Rack middleware, in front of the API: once an address's budget is spent, its next
 * unauthenticated request is answered 429 by the throttle and never reaches the API's
 * authentication, whatever credential it carries; a request with a live token is never counted
 * there. Security teams ask for exactly this: a client (or a key-guessing script) that sends bad
 * keys is slowed down like one that sends none. Here the failed credential is counted in the IP
 * window the reference keeps for requests without a header (`ip:<address>`, 20 a window), and its
 * 401 carries that window's X-RateLimit-* headers, as the reference's no-header 401 does; past the
 * ceiling it is a 429 with Retry-After and the three headers.
 *
 * Why it is conformant:
 * - Limits: the second row's ceiling (20 a minute per IP address) "applies to unauthenticated
 *   requests". A request whose key is malformed, unknown or revoked is not authenticated
 *   (Authentication 7 answers it 401 `authentication_error`, "authentication" failed), so the
 *   row applies to it; the row's header column names requests with no Authorization header, and
 *   those are counted too, exactly as in the reference. The catalogue reads it the same way:
 *   RATE-7 "a target may also count requests whose credential fails (malformed, unknown, revoked
 *   key) against it; it must never count requests made with a valid key". This variant takes
 *   that reading; the reference takes the narrower one.
 * - Requests with a live key are never counted in the IP window and never throttled by it: a key
 *   is looked up before anything is counted, and a live key goes to its own window (Limits, first
 *   row; RATE-2, RATE-3, RATE-6, RATE-8 unchanged).
 * - When the IP window is spent, the answer is the document's 429 (Limits: "When a limit is
 *   exceeded the response is 429 with type rate_limit_error, code rate_limit_exceeded, a message
 *   that states the wait in seconds, and param null"), with Retry-After and the three
 *   X-RateLimit-* headers (RATE-3, RATE-4, RATE-9; RFC 6585 4, RFC 9110 10.2.3), the same answer
 *   the reference gives a request with no header past the same ceiling. The document orders the
 *   two rules no differently for a bad key than for no key: the reference already lets the limit
 *   answer first for a missing key (Authentication 7 says 401, Limits says 429 once exceeded), and
 *   this variant does the same for an incorrectly formatted, unknown or revoked one. Below the
 *   ceiling every such request is answered exactly as in the reference: 401 `authentication_error`,
 *   in the envelope with code and param null for an unknown or revoked key (AUTH-2, AUTH-3,
 *   AUTH-7, AUTH-8, ERR-1, ERR-2, KEY-5).
 * - X-RateLimit-Limit on these answers is 20, the ceiling of the window they are counted in (the
 *   Limits header table: "request ceiling for the window"), as on the reference's no-header
 *   answers; RATE-2's per-key ceiling concerns the answers counted against a key, and these are
 *   counted against none. Remaining stays within 0..Limit, Reset is the window's end as for
 *   every other answer.
 * - The open point is which requests the per-IP window keeps count of (Limits: "unauthenticated
 *   requests", not stated further); it is filed under `rate-algorithm`, how the windows are kept,
 *   the nearest of the catalogue of open points. No declared fact changes: the ceilings and the
 *   window are the profile's.
 */

export default defineVariant({
  description:
    "GitLab Rack::Attack style: a request whose credential fails (malformed, unknown or revoked key) is unauthenticated and is counted in the same per-IP window as a request without a header (20 a window); its 401 carries that window's X-RateLimit-* headers, and once the window is spent it is answered 429 rate_limit_error before authentication",
  openPoint: 'rate-algorithm',
  rateLimits: true,
  atRisk: ['RATE-7', 'RATE-2', 'RATE-4', 'AUTH-2', 'AUTH-3', 'AUTH-7', 'AUTH-8', 'KEY-5', 'ERR-1', 'ERR-2'],
  modify: ({ app, state }) => {
    // A 401 under /api/ to a request that carried a header is a failed credential (no route answers
    // 401; reference/auth.ts answers a live key otherwise). It is counted where the reference counts
    // a request without a header, when its answer is made: after the request's time is read, and
    // nothing of the request was done that a throttle in front of authentication would have spared.
    app.addHook('onSend', async (req, reply, payload) => {
      if (reply.statusCode !== 401 || req.headers.authorization === undefined || !req.url.startsWith('/api/')) return payload;
      const window = state.limiter.hit(`ip:${req.ip}`, state.profile.limits.unauthenticatedPerMinute);
      reply.header('x-ratelimit-limit', String(window.limit));
      reply.header('x-ratelimit-remaining', String(window.remaining));
      reply.header('x-ratelimit-reset', String(state.behaviour.resetHeader(window.resetAtMs, state.now())));
      if (!window.exceeded) return payload;
      const seconds = state.behaviour.retryAfterSeconds(window.resetAtMs, state.now());
      reply.header('retry-after', String(seconds));
      const body = errorBody('rate_limit_error', `Too many requests. Retry after ${seconds} seconds.`, { code: 'rate_limit_exceeded' });
      // The document's rate-limit example body has no path member (as reference/auth.ts).
      delete body.error.path;
      reply.code(429);
      return JSON.stringify(body);
    });
  },
});
