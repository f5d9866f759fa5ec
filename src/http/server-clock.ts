import { endedAt, fromApi, type Exchange } from './exchange.js';

/**
 * The target's clock as its `Date` headers tell it (RFC 9110, 6.6.1: the moment the response was
 * made, in whole seconds). A time the API sends (`X-RateLimit-Reset`, an HTTP-date `Retry-After`)
 * is a moment on the API's clock, and is judged and waited for on that clock, not on the clock of
 * the machine the suite runs on, which may be minutes off (a CI runner that lost NTP).
 *
 * Each answer bounds the offset between the two clocks: the API wrote `Date` before its answer
 * came, and, where it keeps its `Date` fresh, after the request was sent, its clock then reading
 * `Date` plus less than a second. The bounds of all answers are intersected, so that a run of many
 * requests knows the offset to a few milliseconds though each header is rounded to the second; a
 * `Date` kept from earlier bounds it from below only (`ServerClock`).
 */

/** The `Date` header in milliseconds since the epoch, or null where there is none or it is no date. */
export function dateOf(headers: Readonly<Record<string, string>>): number | null {
  const value = headers['date'];
  if (value === undefined) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** When an answer's request left, on the suite's clock, and the `Date` the answer came with (null: none). */
export interface AnswerTimes {
  readonly sentAt: number;
  readonly date: number | null;
}

/** The times of a logged exchange's answer. */
export function answerTimes(exchange: Exchange): AnswerTimes {
  return { sentAt: Date.parse(exchange.startedAt), date: exchange.response ? dateOf(exchange.response.headers) : null };
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
  /**
   * Retired: the estimate no longer starts again on a `Date` that disagrees with those before it
   * (it follows the freshest reading, see `stale`); always 0, kept for readers of earlier reports.
   */
  readonly restarts: number;
  /**
   * Answers whose `Date` lagged the freshest reading of the API's clock by more than its rounding
   * allows: a server that caches its `Date` (per connection, per tick of its loop), a gateway's
   * clock behind the API's, a clock that stepped back. Such headers are not trusted as the time.
   */
  readonly stale: number;
  /** The most a `Date` lagged the freshest reading, in milliseconds (0 where none did). */
  readonly maxLagMs: number;
}

/** The upper bound of the offset, and the answers whose `Date` lagged the freshest reading. */
interface Upper {
  readonly hi: number;
  /** The least upper bound of the answers that agree with the freshest reading, and the greatest of all. */
  readonly least: number;
  readonly greatest: number;
  readonly stale: number;
  readonly maxLagMs: number;
}

/** Where no `Date` lagged, the least bound holds; where some did, only the freshest answer's, the greatest. */
function upper(least: number, greatest: number, stale: number, maxLagMs: number): Upper {
  return { hi: stale === 0 ? least : greatest, least, greatest, stale, maxLagMs };
}

/**
 * A `Date` is a lower bound on the API's time: HTTP asks it be the moment the response was made
 * (RFC 9110, 6.6.1), but a server may make it earlier and keep it (uvicorn 0.17 takes it when a
 * connection opens and keeps it for the connection's life; nginx and Apache cache it per tick),
 * never later. So the freshest reading of all answers is the API's time: each answer bounds the
 * offset from below, and from above only as far as the server is seen to keep its `Date` fresh.
 */
export class ServerClock {
  /** The freshest lower bound of the offset: the greatest `Date` minus the moment its answer came. */
  #lo = Number.NEGATIVE_INFINITY;
  /** Every answer's upper bound of the offset, its `Date` taken as fresh: `#upper` keeps those that agree with `#lo`. */
  readonly #his: number[] = [];
  #samples = 0;
  #memo: Upper | null = null;

  /** Learns from one answer: its `Date` and when, on the suite's clock, its request left and its answer came. */
  observe(date: number, sentAt: number, answeredAt: number): void {
    const lo = date - answeredAt;
    const hi = date + 1000 - sentAt;
    this.#his.push(hi);
    this.#samples++;
    if (lo > this.#lo) {
      // A fresher reading: earlier answers may now be stale, measured again when next asked.
      this.#lo = lo;
      this.#memo = null;
    } else if (this.#memo) {
      // The pacer asks after every answer: the bound is kept up to date, not measured over all again.
      const { least, greatest, stale, maxLagMs } = this.#memo;
      this.#memo =
        hi >= this.#lo
          ? upper(Math.min(least, hi), Math.max(greatest, hi), stale, maxLagMs)
          : upper(least, Math.max(greatest, hi), stale + 1, Math.max(maxLagMs, this.#lo - hi));
    }
  }

  /** Learns from a logged exchange, where the API answered it with a `Date`. */
  observeExchange(exchange: Exchange): void {
    if (!fromApi(exchange)) return;
    const { date, sentAt } = answerTimes(exchange);
    if (date !== null) this.observe(date, sentAt, sentAt + exchange.durationMs);
  }

  /**
   * The upper bound of the offset. Where no `Date` lagged the freshest reading, the least every
   * answer allows. Where some did, the server keeps its `Date` and any answer may be stale by less
   * than can be seen, so only what the freshest answer allows holds: the greatest bound of all.
   */
  #upper(): Upper {
    return (this.#memo ??= this.#measure());
  }

  #measure(): Upper {
    let least = Number.POSITIVE_INFINITY;
    let greatest = Number.NEGATIVE_INFINITY;
    let stale = 0;
    let maxLagMs = 0;
    for (const h of this.#his) {
      greatest = Math.max(greatest, h);
      if (h >= this.#lo) least = Math.min(least, h);
      else {
        stale++;
        maxLagMs = Math.max(maxLagMs, this.#lo - h);
      }
    }
    return upper(least, greatest, stale, maxLagMs);
  }

  estimate(): ClockEstimate | null {
    if (this.#samples === 0) return null;
    const { hi, stale, maxLagMs } = this.#upper();
    return {
      offsetMs: Math.round((this.#lo + hi) / 2),
      withinMs: Math.round((hi - this.#lo) / 2),
      samples: this.#samples,
      apart: this.#apart(hi),
      restarts: 0,
      stale,
      maxLagMs: Math.round(maxLagMs),
    };
  }

  /**
   * Milliseconds to subtract from a time on the API's clock to have it on the suite's, never so
   * much that a moment the API names comes early: 0 where the headers cannot tell the clocks
   * apart (the margins of waits cover that much), else the least offset they allow.
   */
  correctionMs(): number {
    return this.#samples > 0 && this.#apart(this.#upper().hi) ? this.#lo : 0;
  }

  /** A moment the API named (ms on its clock), on the suite's clock; never earlier than it is. */
  toSuite(serverMs: number): number {
    return serverMs - this.correctionMs();
  }

  /**
   * The API's time at a moment of the suite's clock, at its freshest reading: never later than it
   * was, and later than a stale `Date` where the answers show the `Date` lagged. Null without a sample.
   */
  serverTimeAt(suiteMs: number): number | null {
    return this.#samples === 0 ? null : suiteMs + this.#lo;
  }

  #apart(hi: number): boolean {
    return this.#samples > 0 && (this.#lo > 0 || hi < 0);
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

/**
 * Every reasonable reading of the API's time when it answered an exchange, in milliseconds: from
 * its own `Date` (which may lag, never lead) to the freshest reading the run's answers give of that
 * moment. A judgement of a time the API sent holds against all of them: a time too far ahead is
 * one ahead of the latest reading, a time in the past one behind the earliest.
 */
export function serverTimesOf(exchange: Exchange, clock: ServerClock): { readonly earliest: number; readonly latest: number } {
  const own = serverTimeOf(exchange, clock);
  const freshest = clock.serverTimeAt(endedAt(exchange));
  return { earliest: own, latest: freshest === null ? own : Math.max(own, freshest) };
}
