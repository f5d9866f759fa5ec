import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: brute-force protection on key-authenticated APIs. The classic
 * form is a Rack::Attack throttle whose discriminator is "the client IP unless the request carries
 * a valid key" (`throttle('api/unauthenticated', limit: 20, period: 60) { |req| req.ip unless
 * valid_key?(req) }`), or the same rule in an in-house Redis fixed-window limiter: whatever fails
 * authentication (no header, a malformed header, a guessed, unknown or revoked key) is charged to
 * the caller's IP, so a client cannot try keys faster than 20 a minute. Teams ship it because
 * key-guessing traffic otherwise costs a hash and a store lookup per request, unthrottled.
 * Here the charge is made once the credential has failed (the 401 the reference would send), to
 * the same per-IP bucket (`ip:<address>`, same fixed window) that requests without a header use;
 * once that bucket is spent, such a request gets the 429 in place of the 401.
 *
 * Why it is conformant: Limits applies the 20-per-minute-per-IP budget to "unauthenticated
 * requests"; a request whose key is malformed, unknown or revoked is unauthenticated, so counting
 * it there is one of the two readings (RATE-7 accepts it; this variant takes it, the reference the
 * narrower "no header" reading). Requests with a valid key are never charged to the IP and never
 * throttled by it: they only ever count against their own key's 100 a minute ("all authenticated
 * requests"). When that budget is exceeded the response is what Limits prescribes for any exceeded
 * limit: 429, type `rate_limit_error`, code `rate_limit_exceeded`, param null, a message stating the
 * wait in seconds, `Retry-After` and the three X-RateLimit-* headers (for this bucket: its ceiling
 * of 20, what is left of it, and when its window ends). Below the budget the answer stays the 401
 * of Authentication rule 7 (and of rule 9 for a malformed header), now also carrying the
 * X-RateLimit-* headers of the bucket it was counted against, exactly as the reference does for a
 * request with no header. The limit takes precedence over the 401 here just as it does, in the
 * reference, for requests without a header (Authentication rule 8): a revoked key past the budget
 * gets a 429, which still "stops working immediately".
 */
export default defineVariant({
  description:
    'charges every request whose credential fails (malformed header, key without the prefix, unknown or revoked key) to the per-IP budget of unauthenticated requests that requests without a header use; past 20 a minute from an IP such requests get 429 in place of 401, and a valid key is never charged to its IP',
  openPoint: 'rate-algorithm',
  atRisk: ['RATE-2', 'RATE-4', 'RATE-7', 'AUTH-1', 'AUTH-2', 'AUTH-3', 'AUTH-7', 'AUTH-8', 'KEY-5', 'ERR-1', 'ERR-2'],
  rateLimits: true,
  modify: ({ app, state }) => {
    app.addHook('onSend', async (req, reply, payload) => {
      // Only authentication failures of a request that did carry an Authorization header: the
      // reference has already charged requests without one (auth.ts), and a valid key never gets a 401.
      if (reply.statusCode !== 401 || req.headers.authorization === undefined || !req.url.startsWith('/api/')) return payload;
      const window = state.limiter.hit(`ip:${req.ip}`, state.profile.limits.unauthenticatedPerMinute);
      const now = state.now();
      reply.header('x-ratelimit-limit', String(window.limit));
      reply.header('x-ratelimit-remaining', String(window.remaining));
      reply.header('x-ratelimit-reset', String(state.behaviour.resetHeader(window.resetAtMs, now)));
      if (!window.exceeded) return payload;
      const seconds = state.behaviour.retryAfterSeconds(window.resetAtMs, now);
      // The document's rate-limit body, as the reference's own 429 (no `path` member).
      const body = {
        error: { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: `Too many requests. Retry after ${seconds} seconds.`, param: null },
      };
      reply.code(429);
      reply.header('retry-after', String(seconds));
      reply.header('content-type', 'application/json; charset=utf-8');
      reply.removeHeader('content-length');
      return JSON.stringify(body);
    });
  },
});
