import { defineVariant } from './variant.js';
import { installAlgorithm } from './support/rate.js';

/**
 * A fixed window per key that opens with the key's first request, not on the clock: the key gets
 * `ceiling` requests from then until one window later, and the next window opens with the first
 * request after that.
 */
export default defineVariant({
  description: "counts each key's requests in fixed windows that start at its first request (not aligned on the clock)",
  openPoint: 'rate-algorithm',
  atRisk: ['RATE-2', 'RATE-3', 'RATE-5', 'RATE-6', 'RATE-7', 'RATE-8'],
  rateLimits: true,
  modify: (reference) => {
    installAlgorithm(reference, (windowMs) => {
      const windows = new Map<string, { startMs: number; used: number }>();
      return (bucket, ceiling, nowMs) => {
        let window = windows.get(bucket);
        if (!window || nowMs >= window.startMs + windowMs) {
          window = { startMs: nowMs, used: 0 };
          windows.set(bucket, window);
        }
        const resetAtMs = window.startMs + windowMs;
        if (window.used >= ceiling) return { limit: ceiling, remaining: 0, resetAtMs, exceeded: true };
        window.used++;
        return { limit: ceiling, remaining: ceiling - window.used, resetAtMs, exceeded: false };
      };
    });
  },
});
