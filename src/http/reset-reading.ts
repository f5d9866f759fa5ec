import type { Exchange } from './exchange.js';
import { serverTimesOf, type ServerClock } from './server-clock.js';

/**
 * Seconds an `X-RateLimit-Reset` may stand beyond one window ahead of the API's time, or behind
 * it, and still be read as the Unix time, in seconds, that the window resets (RATE-2). Minutes,
 * not seconds: what tells a Reset apart is its unit and its origin (one in milliseconds lies some
 * 50,000 years ahead, a relative count of seconds some 56 years behind), and the `Date` it is read
 * against is its sender's claim at its sender's precision: a server that caches its `Date` (uvicorn
 * per connection), a gateway writing its own from another clock, lag by seconds, even minutes.
 */
export const RESET_MARGIN_SECONDS = 120;

/** How a Reset reads against every reasonable reading of the API's time when it was sent. */
export type ResetReading =
  | { readonly kind: 'unix-time' }
  /** Ahead of the latest reading by more than a window and the margin. */
  | { readonly kind: 'too-far-ahead'; readonly aheadS: number }
  /** Behind the earliest reading (the answer's own `Date`) by more than the margin. */
  | { readonly kind: 'past'; readonly behindS: number };

export function readReset(reset: number, exchange: Exchange, clock: ServerClock, windowSeconds: number): ResetReading {
  const { earliest, latest } = serverTimesOf(exchange, clock);
  const aheadS = reset - latest / 1000;
  if (aheadS > windowSeconds + RESET_MARGIN_SECONDS) return { kind: 'too-far-ahead', aheadS };
  const behindS = earliest / 1000 - reset;
  if (behindS > RESET_MARGIN_SECONDS) return { kind: 'past', behindS };
  return { kind: 'unix-time' };
}
