import { defineVariant } from './variant.js';

/*
 * Written blind (variants/batches/2, c-headers-on-success-and-429); RATE-1 warned on it until it read
 * "responses generally" both ways (src/judge/run-wide.ts).
 *
 * Where this happens in the field: an nginx / OpenResty edge in front of the app. The limiter
 * (lua-resty-limit-traffic's `resty.limit.count`, a clock-aligned fixed window like the
 * reference's) runs in the access phase; a throttled request is answered there, by Lua, with the
 * 429, its Retry-After and the three X-RateLimit-* headers set on it explicitly. For requests it
 * lets through, the figures are handed to the response with `add_header X-RateLimit-Limit
 * $rl_limit;` (and Remaining, Reset) without `always`; nginx then adds them only to responses with
 * status 200, 201, 204, 206, 301, 302, 303, 304, 307 or 308. Upstream error responses (401, 404,
 * 405, 400, 422, 500) go out without them. Teams ship this deliberately, too: error responses are
 * not where a client paces itself, and "responses generally" does not ask for them there.
 * What is counted is unchanged: every authenticated request against its key, every request
 * without a header against its IP, errors included.
 *
 * Why it is conformant: the headers table sends X-RateLimit-Limit, -Remaining and -Reset on
 * "responses generally, and every 429": every successful response carries them, every 429 does
 * (with Retry-After), and the document does not require them on other error responses. This takes
 * the reading that "generally" means "as a rule", not "on every response"; where they are sent,
 * their values are the reference's (the per-key ceiling, 0..Limit, the window's end in Unix
 * seconds). Retry-After stays on 429s only. A run sees Remaining fall by one per request across
 * error responses too: it just cannot read it on those.
 */
const DECORATED_STATUSES: ReadonlySet<number> = new Set([200, 201, 204, 206, 301, 302, 303, 304, 307, 308]);

export default defineVariant({
  description:
    'sends the X-RateLimit-* headers on successful responses and on every 429 only, as nginx add_header without `always` does: other error responses (401, 404, 405, 4xx validation errors, 500) carry none, although they are counted as before',
  openPoint: 'http-transport',
  atRisk: ['RATE-1', 'RATE-2', 'RATE-4', 'RATE-7', 'RATE-8', 'RATE-9'],
  rateLimits: true,
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      const status = reply.statusCode;
      if (status === 429 || DECORATED_STATUSES.has(status)) return payload;
      reply.removeHeader('x-ratelimit-limit');
      reply.removeHeader('x-ratelimit-remaining');
      reply.removeHeader('x-ratelimit-reset');
      return payload;
    });
  },
});
