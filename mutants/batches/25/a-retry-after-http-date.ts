import { defineMutant } from '../../mutant.js';

/*
 * How this happens: in the Go rewrite the rate limiter becomes a middleware written from RFC 9110,
 * which allows Retry-After either as delay-seconds or as an HTTP-date. The limiter already holds
 * the window's reset as a time.Time, so the developer writes
 * `w.Header().Set("Retry-After", resetAt.UTC().Format(http.TimeFormat))`. The 429 body is still
 * built by the shared error helper from the remaining duration, so its message keeps saying
 * "Retry after N seconds", and the X-RateLimit-Reset header stays a Unix time; the team's load
 * test only asserts that a 429 arrives and that Retry-After is present.
 */
export default defineMutant({
  description: 'Every 429 sends Retry-After as an HTTP-date of the window reset ("Sun, 01 Mar 2026 12:00:00 GMT") instead of a whole number of seconds.',
  breaks: { 'RATE-4': 'fail' },
  collateral: ['RATE-3', 'RATE-5', 'RATE-7'],
  modify: (reference) => {
    reference.app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode !== 429) return payload;
      const seconds = Number(reply.getHeader('retry-after'));
      if (!Number.isFinite(seconds)) return payload;
      const reset = Number(reply.getHeader('x-ratelimit-reset'));
      const resetAtMs = Number.isFinite(reset) && reset > 0 ? reset * 1000 : reference.state.now() + seconds * 1000;
      reply.header('retry-after', new Date(resetAtMs).toUTCString());
      return payload;
    });
  },
});
