/**
 * Paces requests from the X-RateLimit-* headers so that a run never trips a 429 it did not mean
 * to, and never sleeps longer than the headers say. One budget per bucket (a key, or requests
 * without a key), shared by every worker through the broker.
 *
 * The headers are the truth while they are plausible; where a target sends none, or sends a Reset
 * that is not a Unix time within one window, the pacer falls back to counting its own requests
 * in a sliding window of the profile's size. A Reset is a moment on the target's clock, read on
 * the suite's through the target's `Date` headers (`serverClock`): a suite whose clock is minutes
 * off still waits for the window the target names.
 */

import { FAILED_CREDENTIAL_PACING } from '../http/layers/pacing.js';
import type { RateHeaders } from '../http/rate-headers.js';
import { ServerClock, type AnswerTimes } from '../http/server-clock.js';
import { suiteNow } from '../clock.js';
import { sleep } from '../sleep.js';

/**
 * A pseudo-budget that counts no request: the moments the run's requests with a failed credential
 * (malformed, unknown, revoked) were answered. A target may count them against its per-IP budget
 * (clause catalogue, RATE-7), so RATE-7 judges a window that holds none of them.
 */
export const FAILED_CREDENTIALS_BUCKET = 'failed-credentials';

export interface PacerOptions {
  /** Per-key ceiling per window, from the profile. */
  readonly perKey: number;
  /** Ceiling per window for requests without Authorization, from the profile. */
  readonly anonymous: number;
  readonly windowMs: number;
  /**
   * Added to every wait for a reset, for clock skew between the suite and the target.
   * @default 1000
   */
  readonly marginMs?: number;
  /** Called when a wait of two seconds or more begins, for progress output; `what` says why. */
  readonly onWait?: ((bucket: string, ms: number, what?: string) => void) | undefined;
  /** The suite's clock (ms). @default suiteNow */
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  /**
   * Requests of a bucket's window the run's own pacing never spends: the teardown reserve, kept
   * on the key that deletes the run's keys, so that deleting them on a signal never waits for a
   * window (the teardown sends without pacing). @default none held back
   */
  readonly holdBack?: (bucket: string) => number;
}

/** A wait going on: for which bucket's budget, what for, since when and until when (local ms). */
export interface Wait {
  bucket: string;
  readonly what: string;
  readonly since: number;
  until: number;
}

/** Thrown into every wait, present and future, once the run is stopped (a signal): nothing more is sent. */
export class PacingStopped extends Error {
  override readonly name = 'PacingStopped';
}

interface BucketState {
  ceiling: number;
  /** Requests left in the current window, as the target last said. */
  remaining: number | null;
  /** Local time (ms) from which the target's window has reset. */
  resetAt: number | null;
  inFlight: number;
  /** Requests set aside by `reserve`, sent later without pacing; each unpaced response uses one. */
  reserved: number;
  /** Local send times within the last window, for the fallback. */
  sent: number[];
  /** Local time of the last response (paced or not), for `untilFresh` without headers. */
  lastSeenAt: number | null;
  /** Whether the last response carried a plausible Reset (the window's end is known). */
  resetKnown: boolean;
  /** The plausible Reset (Unix seconds, as sent) of the answer `remaining` was read from: which window it is of. */
  window: number | null;
  /**
   * The window the target named has ended and no answer since has said where the next one stands:
   * its budget is whole, as the Reset said, but how whole a sliding limiter's is, only an answer tells.
   */
  renewed: boolean;
}

const LONG_WAIT_MS = 2000;
const POLL_MS = 250;
/** How often a request waiting for the first answer of a renewed window looks again: an answer is on its way. */
const RENEWAL_POLL_MS = 20;

export class Pacer {
  readonly #options: PacerOptions;
  readonly #buckets = new Map<string, BucketState>();
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  /** Total time spent waiting for budgets, for the report and bench. */
  waitedMs = 0;
  /** The target's clock against the suite's, from every answer's `Date` (fed by whoever records the exchanges). */
  readonly serverClock = new ServerClock();
  #stopped: PacingStopped | null = null;
  readonly #waits = new Set<Wait>();
  /** The target counts requests with a failed credential against its per-IP budget, as its answers showed. */
  #failedOnIp = false;
  /** Of those, requests in flight that were paced on the per-IP budget. */
  #failedInFlight = 0;

  constructor(options: PacerOptions) {
    this.#options = options;
    this.#now = options.now ?? suiteNow;
    this.#sleep = options.sleep ?? sleep;
  }

  /**
   * Ends every wait at once, and refuses every later one, with `PacingStopped(reason)`: a run
   * that was told to stop sends nothing more through its pacing (the teardown does not pace).
   */
  stop(reason: string): void {
    this.#stopped ??= new PacingStopped(reason);
  }

  /** Resolves when one more request of the bucket fits its budget; counts it as in flight. */
  async acquire(bucket: string, anonymous: boolean): Promise<void> {
    if (bucket === FAILED_CREDENTIAL_PACING) {
      if (!this.#failedOnIp) return;
      await this.acquire('anonymous', true);
      this.#failedInFlight++;
      return;
    }
    const state = this.#state(bucket, anonymous);
    await this.#waitFor(
      () => bucket,
      () => this.delay(bucket, anonymous),
      'the rate-limit window',
    );
    state.inFlight++;
    state.sent.push(this.#now());
  }

  /**
   * Resolves with the index of the bucket, among `buckets` (keys of one account), that allows a
   * request soonest, and counts the request in flight there: work spread over several keys waits
   * for none of them while another has budget. Ties go to the bucket with the most room left, and
   * the first bucket (the configured key) goes last: it alone carries what cannot be spread
   * (deletions, unpaced and 429-seeking requests, the teardown), so the keys that can take
   * anything are spent first and the configured key's window is kept for that work.
   */
  async acquireAny(buckets: readonly string[]): Promise<number> {
    let best = 0;
    const soonest = () => {
      best = this.#soonest(buckets);
      return this.delay(buckets[best]!, false);
    };
    await this.#waitFor(() => buckets[best]!, soonest, `the rate-limit window of all ${buckets.length} keys`);
    const state = this.#state(buckets[best]!, false);
    state.inFlight++;
    state.sent.push(this.#now());
    return best;
  }

  /**
   * The index of the bucket that allows a request soonest; of those that do now, the one with most
   * room, the first bucket only when no other allows one now.
   */
  #soonest(buckets: readonly string[]): number {
    let best = 0;
    let bestDelay = Number.POSITIVE_INFINITY;
    let bestRoom = Number.NEGATIVE_INFINITY;
    buckets.forEach((bucket, index) => {
      const delay = Math.max(0, this.delay(bucket, false));
      const room = index === 0 && buckets.length > 1 ? Number.NEGATIVE_INFINITY : this.#room(bucket);
      if (delay < bestDelay || (delay === bestDelay && room > bestRoom)) [best, bestDelay, bestRoom] = [index, delay, room];
    });
    return best;
  }

  /**
   * Where a bucket of a key stands: requests it may still send in its window, and when that window
   * ends (local ms; null where the target named no Reset and the pacer sent nothing in a window).
   */
  standing(bucket: string): { readonly room: number; readonly resetAt: number | null } {
    this.delay(bucket, false); // forgets a window that has ended
    const state = this.#state(bucket, false);
    const resetAt = state.resetAt ?? (state.sent.length > 0 ? state.sent[0]! + this.#options.windowMs : null);
    return { room: Math.max(0, this.#room(bucket)), resetAt };
  }

  /** Requests the bucket may still send in its window, as far as the pacer knows. */
  #room(bucket: string): number {
    const state = this.#state(bucket, false);
    const held = this.#options.holdBack?.(bucket) ?? 0;
    if (state.remaining !== null) return state.remaining - state.inFlight - state.reserved - held;
    if (state.renewed) return state.ceiling - state.inFlight - state.reserved - held;
    return state.ceiling - state.sent.length - held;
  }

  /**
   * Resolves when `count` requests of the bucket fit its budget, and sets them aside for requests
   * sent without pacing (`pace: false`): a rate-limit check that must not be held up by the pacer
   * between two requests (RATE-6 tries the main key right after exhausting another).
   */
  async reserve(bucket: string, anonymous: boolean, count: number): Promise<void> {
    const state = this.#state(bucket, anonymous);
    await this.#waitFor(
      () => bucket,
      () => this.delay(bucket, anonymous, count),
      'budget to set aside for a rate-limit check',
    );
    state.reserved += count;
    const now = this.#now();
    for (let i = 0; i < count; i++) state.sent.push(now);
  }

  /**
   * Gives back `count` requests set aside by `reserve` and never sent: a reservation left standing
   * holds the bucket's first request of a new window back for an answer that never comes.
   */
  release(bucket: string, anonymous: boolean, count: number): void {
    const state = this.#state(bucket, anonymous);
    state.reserved = Math.max(0, state.reserved - count);
  }

  /** Resolves once the bucket's budget still covers what it holds back (`holdBack`), counting nothing more. */
  async untilRoom(bucket: string): Promise<void> {
    await this.#waitFor(
      () => bucket,
      () => this.delay(bucket, false, 0),
      'the rate-limit window',
    );
  }

  /**
   * Resolves once no request the run made of the bucket counts in the target's current window:
   * after the Reset the target last named, or, when it names none, one whole window (plus the
   * margin) after the last response, which is fresh for fixed and sliding windows alike.
   */
  async untilFresh(bucket: string, anonymous: boolean): Promise<void> {
    await this.#waitFor(
      () => bucket,
      () => this.freshIn(bucket, anonymous),
      'a fresh rate-limit window',
    );
  }

  /** Milliseconds until the bucket's window holds none of the run's requests. */
  freshIn(bucket: string, anonymous: boolean): number {
    const state = this.#state(bucket, anonymous);
    const now = this.#now();
    if (state.lastSeenAt === null) return 0;
    if (state.resetKnown && state.resetAt !== null) return Math.max(0, state.resetAt - now);
    if (state.resetKnown) return 0; // the Reset it named has passed (and was forgotten)
    return Math.max(0, state.lastSeenAt + this.#options.windowMs + (this.#options.marginMs ?? 1000) - now);
  }

  /** The waits going on now, each with what it waits for and until when as the pacer now knows it. */
  waits(): readonly Wait[] {
    return [...this.#waits];
  }

  /** Sleeps in slices until `delay` says 0, naming `who` is awaited when the wait is long. */
  async #waitFor(who: () => string, delay: () => number, what: string): Promise<void> {
    let announced = false;
    let wait: Wait | null = null;
    try {
      for (;;) {
        if (this.#stopped) throw this.#stopped;
        const ms = delay();
        if (ms <= 0) return;
        if (!announced && ms >= LONG_WAIT_MS) {
          this.#options.onWait?.(who(), ms, what);
          announced = true;
        }
        // Re-read every slice: a window that ends may reveal another (a sliding window, a Reset
        // that moved), and whoever shows the wait must show the end it has now, not the first guess.
        wait ??= { bucket: who(), what, since: this.#now(), until: 0 };
        wait.bucket = who();
        wait.until = this.#now() + ms;
        this.#waits.add(wait);
        const slice = Math.min(ms, POLL_MS);
        this.waitedMs += slice;
        await this.#sleep(slice);
      }
    } finally {
      if (wait) this.#waits.delete(wait);
    }
  }

  /** Milliseconds until the bucket allows `count` more requests; 0 when it does now. */
  delay(bucket: string, anonymous: boolean, count = 1): number {
    const state = this.#state(bucket, anonymous);
    const now = this.#now();
    if (state.resetAt !== null && now >= state.resetAt) {
      state.remaining = null;
      state.resetAt = null;
      state.reserved = 0;
      state.window = null;
      state.renewed = true;
    }
    // Never more than the ceiling less one held back, so that a tiny ceiling still lets work through.
    const held = Math.min(this.#options.holdBack?.(bucket) ?? 0, state.ceiling - 1);
    if (state.remaining !== null) {
      if (state.remaining - state.inFlight - state.reserved - held >= count) return 0;
      if (state.resetAt !== null) return state.resetAt - now;
    }
    // The window the target named has ended, by the pacer's reckoning: one request goes at once, and
    // its answer says where the new window stands; the others look again when it comes, whatever
    // the run's own count says. Counted alone, the old window's requests would hold them up to a
    // window later; or, sent more than a window ago, let several go at once into a window the target
    // still counts (a Reset rounded down, a clock read a little off: a stress run met a 429 so).
    if (state.renewed && count === 1) return state.inFlight + state.reserved === 0 ? 0 : RENEWAL_POLL_MS;
    const windowStart = now - this.#options.windowMs;
    while (state.sent.length > 0 && state.sent[0]! <= windowStart) state.sent.shift();
    const ceiling = state.ceiling - held;
    if (state.sent.length + count <= ceiling) return 0;
    return state.sent[Math.min(state.sent.length - 1, state.sent.length + count - 1 - ceiling)]! + this.#options.windowMs - now + 1;
  }

  /**
   * The answer to a request with a failed credential: a target shows it counts such requests
   * against its per-IP budget by a 429, or by X-RateLimit-Limit at the per-IP ceiling (not the
   * per-key one), as RATE-7 allows. Once shown, they are paced on that budget, and their headers
   * are read as its standing.
   */
  observeFailed(status: number | null, headers: RateHeaders, times?: AnswerTimes): void {
    const { anonymous, perKey } = this.#options;
    if (status === 429 || (headers.limit !== null && headers.limit === anonymous && headers.limit !== perKey)) this.#failedOnIp = true;
    if (!this.#failedOnIp) return;
    const state = this.#state('anonymous', true);
    // Paced there: one fewer in flight. Sent before the pacer knew, or unpaced: the headers alone, no reserve spent.
    if (this.#failedInFlight > 0) {
      this.#failedInFlight--;
      if (state.inFlight > 0) state.inFlight--;
    }
    this.#read(state, status, headers, times);
  }

  /**
   * Learns from a response of the bucket; `paced` says whether it went through `acquire`, `times`
   * when its request left and the `Date` it came with (without them, no answer is read as showing
   * a window still counting after the end the pacer read from its Reset).
   */
  observe(bucket: string, anonymous: boolean, status: number | null, headers: RateHeaders, paced: boolean, times?: AnswerTimes): void {
    const state = this.#state(bucket, anonymous);
    if (paced && state.inFlight > 0) state.inFlight--;
    if (!paced && state.reserved > 0) state.reserved--;
    this.#read(state, status, headers, times);
  }

  /** What an answer's status and headers say of its bucket's standing. */
  #read(state: BucketState, status: number | null, headers: RateHeaders, times?: AnswerTimes): void {
    const now = this.#now();
    state.lastSeenAt = now;
    state.renewed = false;
    const margin = this.#options.marginMs ?? 1000;
    const reset = this.#plausibleReset(headers.reset, now, margin);
    state.resetKnown = reset !== null;
    if (status === 429) {
      state.remaining = 0;
      const retryAfterMs = headers.retryAfter !== null && headers.retryAfter >= 0 ? headers.retryAfter * 1000 : this.#options.windowMs;
      state.resetAt = Math.max(now + Math.min(retryAfterMs, this.#options.windowMs + margin) + margin, reset ?? 0);
      return;
    }
    if (headers.remaining === null || headers.remaining < 0) return;
    // Answers are read in any order (requests in flight at once): one of a window before, or of this
    // window with more left, was counted before the answer already read, and is older news, not
    // budget come back. Only a Unix-time Reset orders windows; without one, the last answer read stands.
    const window = reset === null ? null : headers.reset;
    if (
      window !== null &&
      state.window !== null &&
      (window < state.window || (window === state.window && state.remaining !== null && headers.remaining > state.remaining))
    )
      return;
    state.remaining = headers.remaining;
    state.resetAt = reset === null || times === undefined ? reset : this.#windowEnd(reset, headers.reset!, now, margin, times);
    state.window = window;
  }

  /**
   * When the window an answer names ends, on the suite's clock. A Reset names a whole second, and
   * a server may round its window's end up or down (both are the Unix time it resets, RATE-2): the
   * pacer waits for the second named, and where an answer to a request sent after that shows the
   * window still counting, until the second after it. It reads that second on the answer's own
   * `Date` as well, which never leads the server's time: an offset measured earlier no longer holds
   * where the server's clock stepped back, or its limiter keeps another clock than its `Date`.
   */
  #windowEnd(named: number, resetS: number, now: number, margin: number, times: AnswerTimes): number {
    if (times.sentAt < named) return named;
    const next = (resetS + 1) * 1000;
    const byDate = times.date === null ? 1000 : Math.min(next - times.date, this.#options.windowMs);
    return Math.max(this.serverClock.toSuite(next), now + byDate) + margin;
  }

  #plausibleReset(reset: number | null, now: number, margin: number): number | null {
    if (reset === null) return null;
    const at = this.serverClock.toSuite(reset * 1000);
    // A Reset in milliseconds or relative seconds is not a Unix time in seconds: ignore it.
    if (at < now - this.#options.windowMs || at > now + this.#options.windowMs + 5000) return null;
    return at + margin;
  }

  #state(bucket: string, anonymous: boolean): BucketState {
    let state = this.#buckets.get(bucket);
    if (!state) {
      state = {
        ceiling: anonymous ? this.#options.anonymous : this.#options.perKey,
        remaining: null,
        resetAt: null,
        inFlight: 0,
        reserved: 0,
        sent: [],
        lastSeenAt: null,
        resetKnown: false,
        window: null,
        renewed: false,
      };
      this.#buckets.set(bucket, state);
    }
    return state;
  }
}
