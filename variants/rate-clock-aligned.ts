import { createHash } from 'node:crypto';
import { defineVariant } from './variant.js';
import { installAlgorithm } from './support/rate.js';

/**
 * Fixed windows on the clock, but each key's windows are shifted by an offset of its own (a hash
 * of the key within one window), so that keys do not all reset at the same instant. The
 * reference aligns every key on multiples of the window.
 */
export default defineVariant({
  description: "counts each key's requests in fixed clock windows shifted by a per-key offset (a hash of the key), not aligned on multiples of the window",
  openPoint: 'rate-algorithm',
  atRisk: ['RATE-2', 'RATE-3', 'RATE-5', 'RATE-6', 'RATE-7', 'RATE-8'],
  rateLimits: true,
  modify: (reference) => {
    installAlgorithm(reference, (windowMs) => {
      const counts = new Map<string, { window: number; used: number }>();
      const offsetOf = (bucket: string) => createHash('sha256').update(bucket).digest().readUInt32BE(0) % windowMs;
      return (bucket, ceiling, nowMs) => {
        const offset = offsetOf(bucket);
        const window = Math.floor((nowMs - offset) / windowMs);
        let entry = counts.get(bucket);
        if (!entry || entry.window !== window) counts.set(bucket, (entry = { window, used: 0 }));
        const resetAtMs = offset + (window + 1) * windowMs;
        if (entry.used >= ceiling) return { limit: ceiling, remaining: 0, resetAtMs, exceeded: true };
        entry.used++;
        return { limit: ceiling, remaining: ceiling - entry.used, resetAtMs, exceeded: false };
      };
    });
  },
});
