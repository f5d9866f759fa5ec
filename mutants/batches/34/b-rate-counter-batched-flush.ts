import { defineMutant } from '../../mutant.js';
import type { WindowState } from '../../../reference/rate-limit.js';

/** How many requests a node counts locally for a bucket before it flushes them to the shared counter. */
const FLUSH_EVERY = 16;

/*
 * How this happens: to take the shared counter store (Redis) off the hot path, each API node
 * counts requests in memory and a write-behind flusher pushes them with one INCRBY per bucket
 * every 16 requests (the pending count of a window that ends is dropped with it). The admission
 * check and the X-RateLimit-Remaining header were left reading the shared counter alone, not the
 * shared counter plus what the node still holds unflushed. A load test at a steady rate looked
 * right (the counter lags by at most 15 requests per bucket), so it shipped: within a window,
 * Remaining stays put for 15 requests and then drops by 16, and a bucket gets up to 15 requests
 * past its ceiling before the first 429 (112 instead of 100 per key, 32 instead of 20 per IP).
 */
export default defineMutant({
  description:
    'Rate-limit counters are now batched in memory and flushed to the shared store every 16 requests; admission and X-RateLimit-Remaining read only the flushed count, so a key (or IP) gets up to 15 requests past its ceiling and Remaining falls in steps of 16.',
  breaks: { 'RATE-3': 'fail', 'RATE-7': 'fail', 'RATE-8': 'warn' },
  modify: (reference) => {
    const { limiter } = reference.state;
    const windowMs = limiter.windowMs;
    /** The shared store: what the flusher has written, per bucket and window. */
    const flushed = new Map<string, { window: number; used: number }>();
    /** This node's count not yet flushed, per bucket and window. */
    const pending = new Map<string, { window: number; count: number }>();
    const current = <T extends { window: number }>(map: Map<string, T>, bucket: string, window: number, fresh: () => T): T => {
      let entry = map.get(bucket);
      if (!entry || entry.window !== window) {
        entry = fresh();
        map.set(bucket, entry);
      }
      return entry;
    };
    limiter.hit = (bucket: string, ceiling: number): WindowState => {
      const window = Math.floor(limiter.now() / windowMs);
      const resetAtMs = (window + 1) * windowMs;
      const shared = current(flushed, bucket, window, () => ({ window, used: 0 }));
      const local = current(pending, bucket, window, () => ({ window, count: 0 }));
      // The fault: the decision reads the flushed count, not flushed + pending.
      if (shared.used >= ceiling) return { limit: ceiling, remaining: 0, resetAtMs, exceeded: true };
      local.count++;
      if (local.count >= FLUSH_EVERY) {
        // The write-behind flush: INCRBY bucket:window <pending>.
        shared.used += local.count;
        local.count = 0;
      }
      return { limit: ceiling, remaining: Math.max(0, ceiling - shared.used), resetAtMs, exceeded: false };
    };
    limiter.forget = (bucket: string) => {
      flushed.delete(bucket);
      pending.delete(bucket);
    };
  },
});
