/**
 * A request's deadline, counted in the time this thread was free to see its answer.
 *
 * A timer set for a deadline fires once the thread gets back to its event loop, and timers run
 * before the loop reads its sockets: a thread held busy past the deadline by its own work (a run
 * loading vitest while its preflight is in flight, a loaded CI machine) declared the target silent
 * though the answer sat unread in the socket, or the request had not even been written. That is
 * the suite's own machine, not the API (a verdict is made only on what the target did). So the time
 * the thread was held, measured by a tick that notices when it runs late, is not counted against the
 * target; and before the deadline is declared, the loop reads its sockets once, as undici does
 * before it declares a connection timed out. However held the machine, a deadline lasts at most
 * `MOST_TIMES` its length: a run against a target that never answers stays bounded.
 */

/** The tick that measures how long the thread was held: it runs only while a deadline is pending. */
const TICK_MS = 50;
/** A tick this much late or less is the loop's ordinary jitter, not a hold. */
const JITTER_MS = 20;
/** The most a deadline lasts, in times its length, whatever the thread was held. */
export const MOST_TIMES = 5;

let pending = 0;
let heldMs = 0;
let lastTick = 0;
let ticker: ReturnType<typeof setInterval> | null = null;

function watch(): void {
  if (pending++ > 0) return;
  lastTick = performance.now();
  ticker = setInterval(() => {
    const now = performance.now();
    const late = now - lastTick - TICK_MS;
    if (late > JITTER_MS) heldMs += late;
    lastTick = now;
  }, TICK_MS);
  ticker.unref();
}

function unwatch(): void {
  if (--pending > 0) return;
  clearInterval(ticker!);
  ticker = null;
}

/** The time this thread has been held since the tick began (it only grows). */
function held(): number {
  // The hold under way, which the tick has not yet seen: it runs late now if it is due.
  const late = performance.now() - lastTick - TICK_MS;
  return heldMs + (ticker !== null && late > JITTER_MS ? late : 0);
}

export interface Deadline {
  /** Aborts, with a `TimeoutError` as `AbortSignal.timeout` gives, once the deadline has passed. */
  readonly signal: AbortSignal;
  /** The request settled: the deadline stops. Call it exactly once. */
  readonly settle: () => void;
}

/** A deadline of `ms` of the target's time (see above), at most `MOST_TIMES × ms` of the machine's. */
export function deadline(ms: number): Deadline {
  const controller = new AbortController();
  const started = performance.now();
  watch();
  const heldBefore = held();
  let timeout: ReturnType<typeof setTimeout> | null = null;
  let immediate: ReturnType<typeof setImmediate> | null = null;
  let settled = false;
  const settle = () => {
    if (settled) return;
    settled = true;
    clearTimeout(timeout ?? undefined);
    clearImmediate(immediate ?? undefined);
    unwatch();
  };
  const check = () => {
    // First the loop reads its sockets: an answer already there settles the request instead.
    immediate = setImmediate(() => {
      if (settled) return;
      const elapsed = performance.now() - started;
      const counted = elapsed - (held() - heldBefore);
      if (counted >= ms || elapsed >= MOST_TIMES * ms) {
        controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
        settle();
      } else timeout = setTimeout(check, Math.max(1, Math.min(ms - counted, MOST_TIMES * ms - elapsed)));
    });
  };
  timeout = setTimeout(check, ms);
  return { signal: controller.signal, settle };
}
