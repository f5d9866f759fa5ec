import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the limiter was moved to a Redis `SET bucket 0 EX 60 NX` + `INCR` scheme, so a
 * bucket's window now starts at its first request and lasts a minute from there. The code that
 * writes X-RateLimit-Reset and Retry-After was left as it was, computing the end of the current
 * clock-aligned minute. While a key's window started earlier in the same clock minute, the headers
 * announce a reset that comes before the real one: a client that waits Retry-After and retries is
 * still refused, and is then told to wait up to another whole minute.
 */
export default defineMutant({
  description:
    "The limiter's window starts at each bucket's first request, but X-RateLimit-Reset and Retry-After still name the end of the clock-aligned window, so waiting Retry-After is often not enough.",
  breaks: { 'RATE-5': 'warn' },
  collateral: ['RATE-7', 'RATE-8'],
  modify: (reference) => {
    const { limiter } = reference.state;
    const buckets = new Map<string, { startMs: number; used: number }>();
    limiter.forget = (bucket) => void buckets.delete(bucket);
    limiter.hit = (bucket, ceiling) => {
      const now = limiter.now();
      let entry = buckets.get(bucket);
      if (!entry || now >= entry.startMs + limiter.windowMs) {
        entry = { startMs: now, used: 0 };
        buckets.set(bucket, entry);
      }
      // The headers' idea of the window: the clock-aligned one, as before the move.
      const resetAtMs = (Math.floor(now / limiter.windowMs) + 1) * limiter.windowMs;
      if (entry.used >= ceiling) return { limit: ceiling, remaining: 0, resetAtMs, exceeded: true };
      entry.used++;
      return { limit: ceiling, remaining: ceiling - entry.used, resetAtMs, exceeded: false };
    };
  },
});
