/** How long closing what a run started may take once its work is done, in the machine's milliseconds. */
export const CLOSE_BOUND_MS = 10_000;

/** A wait of the machine's own time that keeps no process alive: the default of `closeWithin`. */
function machineWait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Closes what a run started (its vitest, the broker's channel, an embedded reference, the
 * connections) within `boundMs`: true once closed, false when the bound came first, the closing
 * then left to go on without the run. A run's reports and keys are done by then, and a user's CI
 * job must not hang on the suite's own processes winding down: the run ends, and says so.
 *
 * On the machine's time, not the suite's clock (`clock.ts`): this is the suite's own work, nothing
 * of the target's time, and a simulated clock would move past the bound at once. `wait` is
 * injected by the tests.
 */
export async function closeWithin(close: () => Promise<void>, boundMs = CLOSE_BOUND_MS, wait: (ms: number) => Promise<void> = machineWait): Promise<boolean> {
  return await Promise.race([close().then(() => true), wait(boundMs).then(() => false)]);
}
