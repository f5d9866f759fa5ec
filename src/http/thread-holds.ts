/**
 * How long this thread has been held by work of its own (or by a loaded machine), measured by a
 * tick that notices when it runs late: while a thread is held, no timer, socket or promise of it
 * runs. Read by a request's deadline (`deadline.ts`), which does not count the holds against the
 * target, and by the transport, which sends on no connection that idled through a long hold
 * (`holdUnderWayMs`).
 */

/** The tick: it runs only while someone watches (`watchHolds`). */
const TICK_MS = 50;
/** A tick this much late or less is the loop's ordinary jitter, not a hold. */
const JITTER_MS = 20;

let watchers = 0;
let heldSoFar = 0;
let lastTick = 0;
let ticker: ReturnType<typeof setInterval> | null = null;

/** How late the tick is now: above `JITTER_MS`, the thread is held or has just been. */
function lateNow(): number {
  return performance.now() - lastTick - TICK_MS;
}

/** Starts measuring (each watcher once); the function returned stops its watch. */
export function watchHolds(): () => void {
  if (watchers++ === 0) {
    lastTick = performance.now();
    ticker = setInterval(() => {
      const late = lateNow();
      if (late > JITTER_MS) heldSoFar += late;
      lastTick = performance.now();
    }, TICK_MS);
    ticker.unref();
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--watchers > 0) return;
    clearInterval(ticker!);
    ticker = null;
  };
}

/** The time this thread has been held while watched (it only grows), the hold under way included. */
export function heldMs(): number {
  return heldSoFar + holdUnderWayMs();
}

/**
 * The hold under way: how long this thread has been held since its loop last ran its timers, 0
 * within the loop's ordinary jitter, and 0 unwatched.
 */
export function holdUnderWayMs(): number {
  const late = lateNow();
  return ticker !== null && late > JITTER_MS ? late : 0;
}
