import type { WindowState } from '../../../reference/rate-limit.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: express-rate-limit's `MemoryStore` up to version 6 kept one
 * clock for all clients: its constructor set `resetTime` to start + windowMs and started
 * `setInterval(() => this.resetAll(), windowMs)` ("simply reset ALL hits every windowMs"), so every
 * window began at a multiple of the window after the process started, not at a round minute of the
 * wall clock and not at a client's first request. Any limiter that clears its counters from a
 * timer or scheduled job started at boot behaves the same. The `X-RateLimit-Reset` it sends is
 * that boundary, in Unix seconds rounded up (express-rate-limit's legacy headers:
 * `Math.ceil(resetTime.getTime() / 1000)`).
 *
 * Here: fixed windows of the profile's length (a minute), one grid for every key and IP address,
 * starting when the server starts (taken to the second, so that the Unix seconds of
 * `X-RateLimit-Reset` are each window's end exactly): a window ends at start + k × window.
 * `Retry-After` (and the 429's message) is the seconds until it, rounded up. The ceilings, what
 * counts against them, the headers and the 429 are the reference's; only where the windows fall on
 * the clock differs (the reference aligns them on multiples of the window since the Unix epoch).
 *
 * Why it is conformant:
 * - Limits: "Requests per API key: 100 per minute" and "Requests with no Authorization header: 20
 *   per minute per IP address". How a window is kept is left open (open point `rate-algorithm`):
 *   here each window is a minute and admits exactly the ceiling, per key (RATE-6) and per IP
 *   address (RATE-7); the 101st request of a window is 429 with the reference's body (RATE-3,
 *   RATE-4).
 * - "X-RateLimit-Reset: Unix time when the window resets" is exactly that, in whole seconds, never
 *   more than one window ahead (RATE-2); it is not a multiple of 60, which the document never asks.
 * - "Retry-After: seconds to wait before retrying": rounded up, so that a client that waits it finds
 *   the new window (RATE-5); Remaining falls by one per request within a window (RATE-8).
 */

export default defineVariant({
  description:
    "express-rate-limit 6 MemoryStore windows: fixed one-minute windows on a grid that starts when the server starts (not on the clock's minutes), X-RateLimit-Reset the end of the current grid window",
  openPoint: 'rate-algorithm',
  atRisk: ['RATE-2', 'RATE-3', 'RATE-5', 'RATE-6', 'RATE-7', 'RATE-8'],
  rateLimits: true,
  modify: ({ state }) => {
    const limiter = state.limiter;
    /** The server's start, to the second: every window begins a whole number of windows after it. */
    const startMs = Math.floor(limiter.now() / 1000) * 1000;
    const counts = new Map<string, { window: number; used: number }>();
    limiter.hit = (bucket: string, ceiling: number): WindowState => {
      const window = Math.floor((limiter.now() - startMs) / limiter.windowMs);
      let entry = counts.get(bucket);
      if (!entry || entry.window !== window) {
        entry = { window, used: 0 };
        counts.set(bucket, entry);
      }
      const resetAtMs = startMs + (window + 1) * limiter.windowMs;
      if (entry.used >= ceiling) return { limit: ceiling, remaining: 0, resetAtMs, exceeded: true };
      entry.used++;
      return { limit: ceiling, remaining: ceiling - entry.used, resetAtMs, exceeded: false };
    };
    limiter.forget = (bucket: string): void => {
      counts.delete(bucket);
    };
  },
});
