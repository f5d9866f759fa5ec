import { defineVariant } from './variant.js';
import { installAlgorithm } from './support/rate.js';

/**
 * A sliding log: a key's ceiling counts the requests it made in the last window, whenever that
 * began. Remaining is what is left of the ceiling now; Reset is when the oldest request counted
 * leaves the window (and with it frees a request).
 */
export default defineVariant({
  description: 'limits each key with a sliding log: the ceiling counts the requests of the last window; Reset is when the oldest counted request leaves it',
  openPoint: 'rate-algorithm',
  atRisk: ['RATE-2', 'RATE-3', 'RATE-5', 'RATE-6', 'RATE-7', 'RATE-8'],
  rateLimits: true,
  modify: (reference) => {
    installAlgorithm(reference, (windowMs) => {
      const logs = new Map<string, number[]>();
      return (bucket, ceiling, nowMs) => {
        let log = logs.get(bucket);
        if (!log) logs.set(bucket, (log = []));
        while (log.length > 0 && log[0]! <= nowMs - windowMs) log.shift();
        if (log.length >= ceiling) return { limit: ceiling, remaining: 0, resetAtMs: log[0]! + windowMs, exceeded: true };
        log.push(nowMs);
        return { limit: ceiling, remaining: ceiling - log.length, resetAtMs: log[0]! + windowMs, exceeded: false };
      };
    });
  },
});
