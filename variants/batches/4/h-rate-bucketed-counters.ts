import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the bucketed sliding window, the usual answer when a sorted-set
 * log is too costly in memory (one member per request, a hundred per key here) and a fixed window
 * too bursty at its boundary. Each key has one Redis hash whose fields are small time buckets;
 * a request runs one Lua script: HINCRBY the current bucket, HDEL buckets older than the window,
 * sum the rest (HVALS), EXPIRE the hash after one window. Figma described this design for its API
 * ("An alternative approach to rate limiting", 2017: hourly limits over one-minute buckets), and it
 * is the "sliding window with sub-windows" of many in-house limiters since. Here a
 * window is six buckets of a sixth of it (ten seconds for the document's minute): a request is
 * admitted when fewer than the ceiling were admitted in the current bucket and the five before it.
 * Capacity therefore comes back in steps, at bucket boundaries, as old buckets leave the window:
 * X-RateLimit-Reset is the Unix time at which the oldest bucket still counted leaves it (the next
 * moment capacity comes back), and Retry-After on a 429 is the wait until then, rounded up. The
 * same script keys the budget of requests with no Authorization header by IP address.
 *
 * Why it is conformant: Limits gives 100 requests per key and 20 per IP address per minute and does
 * not say how the minute is kept (open point rate-algorithm). The counted span is the current bucket
 * and the five before it, so it always lies within the last window: a client that made fewer than
 * the ceiling in the last minute is never refused. And every clock-aligned minute (indeed every
 * run of six consecutive buckets) is wholly counted while it lasts, so no such minute admits more
 * than the ceiling, as in the reference's fixed windows. Refused requests are not counted. Headers:
 * X-RateLimit-Limit is the ceiling; X-RateLimit-Remaining is the ceiling less the requests counted
 * now (0 to Limit, falling by one per request until an old bucket leaves the span); X-RateLimit-Reset
 * is a Unix time in whole seconds, rounded up, at most one window ahead (the oldest counted bucket
 * is never later than the current one, which leaves one window after it began). "Unix time when the
 * window resets" has two readings under a sliding window; this variant takes the moment capacity
 * first comes back, not the moment the whole ceiling is back. Every 429 is `rate_limit_error`,
 * `rate_limit_exceeded`, param null, with Retry-After and the three X-RateLimit-* headers; its
 * message states the Retry-After figure, and after that wait the oldest bucket has left, so at least
 * one request is admitted again. Limits stay per key: each key (and each IP) has its own hash.
 */

/** Buckets per window. */
const BUCKETS = 6;

export default defineVariant({
  description:
    'limits each key (and each IP without a key) with a bucketed sliding window, six Redis hash buckets of ten seconds per minute; capacity comes back as old buckets leave, and X-RateLimit-Reset (and Retry-After) is when the oldest counted bucket leaves the window',
  openPoint: 'rate-algorithm',
  atRisk: ['RATE-2', 'RATE-3', 'RATE-4', 'RATE-5', 'RATE-6', 'RATE-7', 'RATE-8'],
  rateLimits: true,
  modify: ({ state }) => {
    const limiter = state.limiter;
    const bucketMs = limiter.windowMs / BUCKETS;
    /** Each limiter bucket's hash: time-bucket index to requests admitted in it. */
    const hashes = new Map<string, Map<number, number>>();

    limiter.forget = (bucket) => {
      hashes.delete(bucket);
    };
    limiter.hit = (bucket, ceiling) => {
      // The reference limiter's own clock (reference/rate-limit.ts).
      const current = Math.floor(limiter.now() / bucketMs);
      let hash = hashes.get(bucket);
      if (hash === undefined) {
        hash = new Map();
        hashes.set(bucket, hash);
      }
      // HDEL: buckets that have left the window (older than the current one and the five before it).
      let used = 0;
      let oldest = current;
      for (const [index, count] of hash) {
        if (index <= current - BUCKETS) hash.delete(index);
        else {
          used += count;
          if (count > 0 && index < oldest) oldest = index;
        }
      }
      // The oldest counted bucket leaves the window when the bucket BUCKETS later begins.
      const resetAtMs = (oldest + BUCKETS) * bucketMs;
      if (used >= ceiling) return { limit: ceiling, remaining: 0, resetAtMs, exceeded: true };
      hash.set(current, (hash.get(current) ?? 0) + 1);
      return { limit: ceiling, remaining: ceiling - used - 1, resetAtMs, exceeded: false };
    };
  },
});
