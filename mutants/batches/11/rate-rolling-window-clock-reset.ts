import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the per-key limiter was moved to a rolling window that opens at the key's
 * first request (so that all keys do not renew together at the top of each minute), but the code
 * that writes X-RateLimit-Reset and Retry-After was left alone and still names the next
 * clock-aligned window boundary. A client that waits the Retry-After it was given arrives while
 * its key's own window is still open and is refused again. The per-IP limit, enforced elsewhere,
 * is unchanged.
 */
export default defineMutant({
  description:
    "A key's rate window opens at its first request and lasts a full window, while Reset and Retry-After name the next clock-aligned boundary: after waiting Retry-After the key is still refused.",
  breaks: { 'RATE-5': 'warn' },
  collateral: ['RATE-8'],
  modify: (reference) => {
    const { limiter } = reference.state;
    const windowMs = limiter.windowMs;
    const rolling = new Map<string, { startMs: number; used: number }>();
    const hit = limiter.hit.bind(limiter);
    const forget = limiter.forget.bind(limiter);
    limiter.forget = (bucket) => {
      rolling.delete(bucket);
      forget(bucket);
    };
    limiter.hit = (bucket, ceiling) => {
      if (!bucket.startsWith('key:')) return hit(bucket, ceiling);
      const now = limiter.now();
      let entry = rolling.get(bucket);
      if (!entry || now >= entry.startMs + windowMs) {
        entry = { startMs: now, used: 0 };
        rolling.set(bucket, entry);
      }
      // Still the clock-aligned boundary, as before the change.
      const resetAtMs = (Math.floor(now / windowMs) + 1) * windowMs;
      if (entry.used >= ceiling) return { limit: ceiling, remaining: 0, resetAtMs, exceeded: true };
      entry.used++;
      return { limit: ceiling, remaining: ceiling - entry.used, resetAtMs, exceeded: false };
    };
  },
});
