import { fromApi, type Exchange } from './exchange.js';

/**
 * The target's clock as its `Date` headers tell it (RFC 9110, 6.6.1: the moment the response was
 * made, in whole seconds). A time the API sends (`X-RateLimit-Reset`, an HTTP-date `Retry-After`)
 * is a moment on the API's clock, and is judged and waited for on that clock, not on the clock of
 * the machine the suite runs on, which may be minutes off (a CI runner that lost NTP).
 *
 * Each answer bounds the offset between the two clocks: the API wrote `Date` at some moment
 * between the request's sending and its answer, and its clock then read `Date` plus less than a
 * second. The bounds of all answers are intersected, so that a run of many requests knows the
 * offset to a few milliseconds though each header is rounded to the second.
 */

/** The `Date` header in milliseconds since the epoch, or null where there is none or it is no date. */
export function dateOf(headers: Readonly<Record<string, string>>): number | null {
  const value = headers['date'];
  if (value === undefined) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** What the `Date` headers of a run tell of the API's clock against the suite's. */
export interface ClockEstimate {
  /** Milliseconds the API's clock is ahead of the suite's (negative: behind), the middle of what the headers allow. */
  readonly offsetMs: number;
  /** The offset lies within this many milliseconds of `offsetMs`. */
  readonly withinMs: number;
  /** Answers that carried a `Date`. */
  readonly samples: number;
  /** The headers show the two clocks apart: no offset of 0 agrees with all of them. */
  readonly apart: boolean;
  /** Times the headers disagreed with those before them (another clock behind a load balancer, a clock that stepped): the estimate then starts again. */
  readonly restarts: number;
}

/** Bounds on the API's clock against the suite's, narrowed by every dated answer. */
export class ServerClock {
  #lo = Number.NEGATIVE_INFINITY;
  #hi = Number.POSITIVE_INFINITY;
  #samples = 0;
  #restarts = 0;

  /** Learns from one answer: its `Date` and when, on the suite's clock, its request left and its answer came. */
  observe(date: number, sentAt: number, answeredAt: number): void {
    const lo = date - answeredAt;
    const hi = date + 1000 - sentAt;
    if (lo > this.#hi || hi < this.#lo) {
      // Not the clock the earlier answers came from: follow the newest.
      this.#restarts++;
      [this.#lo, this.#hi] = [lo, hi];
    } else {
      this.#lo = Math.max(this.#lo, lo);
      this.#hi = Math.min(this.#hi, hi);
    }
    this.#samples++;
  }

  /** Learns from a logged exchange, where the API answered it with a `Date`. */
  observeExchange(exchange: Exchange): void {
    const date = exchange.response && fromApi(exchange) ? dateOf(exchange.response.headers) : null;
    if (date === null) return;
    const sentAt = Date.parse(exchange.startedAt);
    this.observe(date, sentAt, sentAt + exchange.durationMs);
  }

  estimate(): ClockEstimate | null {
    if (this.#samples === 0) return null;
    return {
      offsetMs: Math.round((this.#lo + this.#hi) / 2),
      withinMs: Math.round((this.#hi - this.#lo) / 2),
      samples: this.#samples,
      apart: this.#apart(),
      restarts: this.#restarts,
    };
  }

  /**
   * Milliseconds to subtract from a time on the API's clock to have it on the suite's, never so
   * much that a moment the API names comes early: 0 where the headers cannot tell the clocks
   * apart (the margins of waits cover that much), else the least offset they allow.
   */
  correctionMs(): number {
    return this.#apart() ? this.#lo : 0;
  }

  /** A moment the API named (ms on its clock), on the suite's clock; never earlier than it is. */
  toSuite(serverMs: number): number {
    return serverMs - this.correctionMs();
  }

  #apart(): boolean {
    return this.#samples > 0 && (this.#lo > 0 || this.#hi < 0);
  }
}

/** The bounds every dated answer of a log gives. */
export function serverClockOf(log: readonly Exchange[]): ServerClock {
  const clock = new ServerClock();
  for (const e of log) clock.observeExchange(e);
  return clock;
}

/**
 * The API's own time when it answered an exchange, in milliseconds: its `Date`, and where it sent
 * none, the suite's time of the answer moved by what the run's other answers tell of the offset.
 */
export function serverTimeOf(exchange: Exchange, clock: ServerClock): number {
  const date = exchange.response ? dateOf(exchange.response.headers) : null;
  if (date !== null) return date;
  return Date.parse(exchange.startedAt) + exchange.durationMs + clock.correctionMs();
}
