/**
 * A request's deadline, counted in the time this thread was free to see its answer.
 *
 * A timer set for a deadline fires once the thread gets back to its event loop, and timers run
 * before the loop reads its sockets: a thread held busy past the deadline by its own work (a run
 * loading vitest while its preflight is in flight, a loaded CI machine) declared the target silent
 * though the answer sat unread in the socket, or the request had not even been written. That is
 * the suite's own machine, not the API (a verdict is made only on what the target did). So the time
 * the thread was held, measured by a tick that notices when it runs late (`thread-holds.ts`), is not counted against the
 * target; and before the deadline is declared, the loop reads its sockets once, as undici does
 * before it declares a connection timed out. However held the machine, a deadline lasts at most
 * `MOST_TIMES` its length: a run against a target that never answers stays bounded.
 */
import { heldMs, watchHolds } from './thread-holds.js';

/** The most a deadline lasts, in times its length, whatever the thread was held. */
export const MOST_TIMES = 5;

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
  const unwatch = watchHolds();
  const heldBefore = heldMs();
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
      const counted = elapsed - (heldMs() - heldBefore);
      if (counted >= ms || elapsed >= MOST_TIMES * ms) {
        controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
        settle();
      } else timeout = setTimeout(check, Math.max(1, Math.min(ms - counted, MOST_TIMES * ms - elapsed)));
    });
  };
  timeout = setTimeout(check, ms);
  return { signal: controller.signal, settle };
}
