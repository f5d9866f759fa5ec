import type { Exchange } from '../http/exchange.js';
import { RESET_SKEW_SECONDS } from '../http/rate-headers.js';
import { serverClockOf } from '../http/server-clock.js';

/**
 * The target's clock against the suite's, as the run's `Date` headers told it: a fact of the run,
 * never a finding. Every time the target sent (`X-RateLimit-Reset`, an HTTP-date `Retry-After`) was
 * judged and waited for on the target's own clock, so a skew here explains no verdict; it is
 * reported so that a reader of the report knows the suite's machine was off (`conformance.json`'s
 * `clock`, `summary.md`, `report.html`, and the terminal where the clocks are a second apart or more).
 */
export interface ClockFigures {
  /** Answers of the API that carried a `Date` header. */
  readonly samples: number;
  /** Milliseconds the target's clock is ahead of the suite's (negative: behind); null without a `Date`. */
  readonly offsetMs: number | null;
  /** The offset lies within this many milliseconds of `offsetMs`; null without a `Date`. */
  readonly withinMs: number | null;
  /** The headers show the clocks apart: no offset of 0 agrees with all of them. */
  readonly apart: boolean;
  /** Retired: always 0 (the estimate follows the freshest reading and never starts again; see `stale`). */
  readonly restarts: number;
  /** Answers whose `Date` lagged the freshest reading of the target's clock (a server or gateway that caches it); absent in earlier reports. */
  readonly stale?: number;
  /** The most a `Date` lagged, in milliseconds. */
  readonly maxLagMs?: number;
}

export function clockOf(log: readonly Exchange[]): ClockFigures {
  const estimate = serverClockOf(log).estimate();
  if (!estimate) return { samples: 0, offsetMs: null, withinMs: null, apart: false, restarts: 0 };
  const { samples, offsetMs, withinMs, apart, restarts, stale, maxLagMs } = estimate;
  return { samples, offsetMs, withinMs, apart, restarts, stale, maxLagMs };
}

/**
 * The clocks are a second or more apart, beyond what the headers leave uncertain: worth a line of
 * the terminal. Less is the suite's own measurement (its monotonic clock against the machine's wall
 * clock, a loaded machine's scheduling), not a fact a reader of a log needs.
 */
export function clocksApart(c: ClockFigures): boolean {
  return c.apart && c.offsetMs !== null && c.withinMs !== null && Math.abs(c.offsetMs) - c.withinMs >= 1000;
}

/** A lag of the `Date` headers worth a clause of the clock's line. */
const STALE_WORTH_SAYING_MS = 2000;

/** One line for `summary.md` and `report.html` (and the terminal, where the clocks are a second apart or more). */
export function clockLine(c: ClockFigures): string {
  if (c.samples === 0 || c.offsetMs === null || c.withinMs === null) {
    return `clock: the target sent no Date header, so the times it sent were read on the suite's clock, ${RESET_SKEW_SECONDS} s of skew allowed`;
  }
  const seconds = (ms: number) => (Math.abs(ms) < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);
  const from = `from ${c.samples} Date header(s)`;
  // A lag within the second a Date is rounded to, and the time the answer took, is no news.
  const disagreed =
    (c.stale ?? 0) === 0 || (c.maxLagMs ?? 0) < STALE_WORTH_SAYING_MS
      ? ''
      : `; ${c.stale} of its Date headers lagged the freshest reading, by up to ${seconds(c.maxLagMs ?? 0)} (a server or gateway that keeps its Date, or a clock behind another): they were not taken for the time, and every time the target sent was judged against each reading from its answer's own Date to the freshest`;
  if (!c.apart) return `clock: the target's clock and the suite's agree within ${seconds(c.withinMs + Math.abs(c.offsetMs))} (${from})${disagreed}`;
  const way = c.offsetMs > 0 ? 'ahead of' : 'behind';
  return `clock: the target's clock is ${seconds(Math.abs(c.offsetMs))} ${way} the suite's (±${seconds(c.withinMs)}, ${from}); every time the target sent was read on its own clock, so this explains no finding${disagreed}`;
}
