/**
 * The rate-limit windows a run's work crosses, its phases one after another (`SUITE_PHASES`).
 *
 * A phase starts once the one before it has finished, so the budgets of two phases do not overlap
 * as those of one do: the pairs' requests on the second account's key wait for the account lane's
 * many on the configured key, and take windows of their own after them. Counted as the busiest
 * budget's windows alone, a run whose last phase leans on another budget than the main account's
 * was planned one or two windows short (at 10 requests a 4-s window: said 50 s, took 56 s).
 */

/**
 * The budgets a phase's requests draw on: the main account's keys and the second account's key.
 * Not the budget without a key: RATE-7's burst fills what its window has left, whatever the phases
 * before it sent (`schedule.ts` counts that budget's windows).
 */
export const PHASE_BUDGETS = ['main', 'other'] as const;
export type PhaseBudget = (typeof PHASE_BUDGETS)[number];

/** Requests by budget; a budget of no ceiling (`Infinity`) never makes a window. */
export type ByBudget = Readonly<Record<PhaseBudget, number>>;

/**
 * How many window ends the phases' requests cross, from the current window (0: they all fit in
 * it): each phase begins in the window the one before it ended in, where each budget has what it
 * left there (its whole ceiling where it ended earlier or sent nothing), or in the next one where
 * it has work for the main account and that budget is spent, and ends in the window its last
 * budget finishes in. `room`: what each budget may still send in the current window.
 */
export function windowsCrossed(phases: readonly ByBudget[], ceilings: ByBudget, room: ByBudget): number {
  let window = 0;
  let left: Record<PhaseBudget, number> = { main: room.main, other: room.other };
  for (const phase of phases) {
    // A phase whose main account's work finds that budget spent waits for the next window, and its
    // other budgets with it: a check sends its requests in one order, the configured key's first
    // (the pairs read with it before the second account's key), so the second account's room in a
    // window the configured key has spent goes unused (at 10 requests a 4-s window the countdown
    // said 8 s where the run took 12.7 s).
    if (phase.main > 0 && left.main <= 0) {
      window += 1;
      left = { main: ceilings.main, other: ceilings.other };
    }
    const ends = PHASE_BUDGETS.map((budget) => {
      const requests = phase[budget];
      // Nothing to send waits for nothing, though the window be overdrawn (requests in flight).
      if (requests <= 0 || requests <= left[budget]) return { budget, window, left: left[budget] - Math.max(0, requests) };
      const ceiling = Math.max(1, ceilings[budget]);
      const more = Math.ceil((requests - left[budget]) / ceiling);
      return { budget, window: window + more, left: left[budget] + more * ceiling - requests };
    });
    const end = Math.max(...ends.map((e) => e.window));
    if (end > window) left = { main: ceilings.main, other: ceilings.other };
    for (const e of ends) if (e.window === end) left[e.budget] = e.left;
    window = end;
  }
  return window;
}
