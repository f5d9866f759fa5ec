import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the Redis sorted-set sliding log that many teams write in-house
 * (one ZSET per key, scored by request time, in one Lua script: ZREMRANGEBYSCORE key -inf
 * now-window; ZCARD; ZADD when under the ceiling; PEXPIRE key window). The response headers come
 * straight from that script: X-RateLimit-Remaining is the ceiling minus ZCARD, X-RateLimit-Reset is
 * now + PTTL(key), i.e. the moment the newest counted request leaves the window and the key's log
 * (and the Redis key itself) is gone, so the whole ceiling is back; on a 429, Retry-After is read
 * from the oldest member (ZRANGE key 0 0 WITHSCORES): the moment the first slot frees. Teams pick a
 * log over fixed windows to remove the double burst at window boundaries.
 *
 * Why it is conformant: Limits states 100 requests per key and 20 per IP address per minute without
 * fixing how the minute is kept (open point rate-algorithm). A sliding log admits a request exactly
 * when fewer than the ceiling were admitted in the last window, so no span of one window ever sees
 * more than the ceiling, and no client that stayed under it in the last window is refused. Rejected
 * requests are not logged. X-RateLimit-Limit is the ceiling, Remaining is what is left of it now
 * (0..Limit), Reset is a Unix time in whole seconds (rounded up, so the log is clear by then) no
 * more than one window ahead. For Reset, "Unix time when the window resets" has two readings under
 * a sliding window: when the first slot frees, or when the whole ceiling is back; this variant takes
 * the second (the reference's sliding-log example takes the first), so on a 429 Reset can be far
 * later than now + Retry-After. Retry-After is still the true wait before a request is admitted
 * (rounded up, at least 1), and the 429 message states that same number: waiting it, the key (or
 * IP) works again.
 */
export default defineVariant({
  description:
    "limits each key (and each IP without a key) with a Redis sorted-set sliding log: the ceiling counts the requests of the last window; X-RateLimit-Reset is when the newest counted request leaves it (the key's PTTL: the whole ceiling is back), Retry-After when the oldest one does",
  openPoint: 'rate-algorithm',
  atRisk: ['RATE-2', 'RATE-3', 'RATE-4', 'RATE-5', 'RATE-6', 'RATE-7', 'RATE-8'],
  rateLimits: true,
  modify: ({ state, behaviour }) => {
    const limiter = state.limiter;
    const windowMs = limiter.windowMs;
    /** Each bucket's admitted request times, oldest first (the ZSET). */
    const logs = new Map<string, number[]>();
    /**
     * When the oldest counted request of the bucket just refused leaves the window. auth.ts calls
     * `hit` and then, with no await between, `retryAfterSeconds` for the same 429: the one is read
     * right after the other is written, whatever other requests are in flight.
     */
    let retryAtMs: number | null = null;

    limiter.forget = (bucket) => {
      logs.delete(bucket);
    };
    limiter.hit = (bucket, ceiling) => {
      // The reference limiter's own clock (reference/rate-limit.ts).
      const nowMs = limiter.now();
      retryAtMs = null;
      let log = logs.get(bucket);
      if (log === undefined) {
        log = [];
        logs.set(bucket, log);
      }
      // ZREMRANGEBYSCORE key -inf (now - window): what is a whole window old has left it.
      let expired = 0;
      while (expired < log.length && log[expired]! <= nowMs - windowMs) expired++;
      if (expired > 0) log.splice(0, expired);
      if (log.length >= ceiling) {
        const oldest = log[0] ?? nowMs;
        const newest = log[log.length - 1] ?? nowMs;
        retryAtMs = oldest + windowMs;
        return { limit: ceiling, remaining: 0, resetAtMs: newest + windowMs, exceeded: true };
      }
      // ZADD: the clock never goes back, so this is normally an append; kept sorted regardless.
      let at = log.length;
      while (at > 0 && log[at - 1]! > nowMs) at--;
      log.splice(at, 0, nowMs);
      const newest = log[log.length - 1]!;
      return { limit: ceiling, remaining: ceiling - log.length, resetAtMs: newest + windowMs, exceeded: false };
    };
    behaviour.retryAfterSeconds = (resetAtMs, nowMs) => {
      const at = retryAtMs ?? resetAtMs;
      retryAtMs = null;
      // Rounded up, so that a client that waits this long finds the oldest request gone.
      return Math.max(1, Math.ceil((at - nowMs) / 1000));
    };
  },
});
