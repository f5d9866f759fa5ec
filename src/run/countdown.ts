import { CLOSING_S, checkId, phaseRequests, WINDOW_WAITS, type PlannedCheck, type Schedule } from './schedule.js';
import { PHASE_BUDGETS, windowsCrossed, type ByBudget, type PhaseBudget } from './phase-windows.js';

// The schedule counted down as the run goes: the time the heartbeat says the run still needs.

/** Planned requests of finished checks before their actual count revises the rest of the plan. */
const REVISE_AFTER_REQUESTS = 10;

/**
 * Requests sent: all of them, and of those, on each budget whose windows are counted
 * (`phase-windows.ts`): the main account's work (the configured key's, spread over the pool), the
 * second account's key's.
 */
export interface Sent extends ByBudget {
  readonly all: number;
}

/** Where the run stands, for the estimate of the time it still needs. */
export interface Progress {
  /** The checks finished (`checkId`), each with the requests it sent. */
  readonly finished: ReadonlyMap<string, Sent>;
  /** Requests the run has sent since the schedule was made. */
  readonly sent: Sent;
  /**
   * The main account's keys (the configured one and the pool's): requests they may still send in
   * this window, and seconds until it ends (null: unknown); and what the second account's key may
   * still send in its window (absent: its window whole). Taken whole, the pairs' last requests on
   * it, where their window was spent, were counted in it: a window short.
   */
  readonly standing: { readonly room: number; readonly untilResetS: number | null; readonly otherRoom?: number };
  /** Seconds until the longest wait for a budget going on now ends; 0 without one. */
  readonly waitS: number;
}

/**
 * Seconds the run still needs, from its schedule: the requests of the checks not yet finished, on
 * each budget beyond what its window still allows, their phases one after another
 * (`phase-windows.ts`), in windows to wait; a check still to wait a window out (RATE-5), at least
 * to the end of this one; and the requests at the target's pace. It counts down as windows pass
 * and checks finish; where the finished checks sent fewer or more requests than planned (a target
 * with less data, or more, than the one the estimates were measured on), the checks still to run
 * are expected to do the same.
 */
export function remainingSeconds(plan: Schedule, progress: Progress): number {
  const perRequest = plan.secondsPerRequest;
  const left: PlannedCheck[] = [];
  let plannedDone = 0;
  const done: Record<PhaseBudget | 'all', number> = { all: 0, main: 0, other: 0 };
  for (const [id, requests] of plan.perCheck) {
    const sent = progress.finished.get(id);
    if (sent === undefined) left.push(requests);
    else {
      plannedDone += requests.all;
      done.all += sent.all;
      for (const budget of PHASE_BUDGETS) done[budget] += sent[budget];
    }
  }
  // Revised only on evidence: a few checks' worth of requests, and never past a factor of four.
  const ratio = plannedDone >= REVISE_AFTER_REQUESTS ? Math.min(4, Math.max(0.25, done.all / plannedDone)) : 1;
  // The checks under way have sent part of theirs: what the run sent beyond the finished checks and
  // its own (the pool's keys made and deleted by the configured key), counted apart on each budget:
  // requests without a key or on the second account's key spend none of the main account's windows, and once
  // counted against them, the estimate rose by as many when their check finished. They are taken
  // off the earliest phases, which run first.
  const underWay: Record<PhaseBudget | 'all', number> = {
    all: Math.max(0, progress.sent.all - done.all - plan.ownRequests),
    main: Math.max(0, progress.sent.main - done.main - plan.ownRequests),
    other: Math.max(0, progress.sent.other - done.other),
  };
  const phases = phaseRequests(left).map((phase) => {
    const rest = {} as Record<PhaseBudget, number>;
    for (const budget of PHASE_BUDGETS) {
      const planned = Math.round(phase[budget] * ratio);
      rest[budget] = Math.max(0, planned - underWay[budget]);
      underWay[budget] = Math.max(0, underWay[budget] - planned);
    }
    return rest;
  });
  const leftAll = Math.max(0, Math.round(left.reduce((sum, c) => sum + c.all, 0) * ratio) - underWay.all);
  const untilReset = progress.standing.untilResetS ?? plan.windowSeconds;
  const ceilings = plan.phaseCeilings;
  const crossed = windowsCrossed(phases, ceilings, { main: progress.standing.room, other: progress.standing.otherRoom ?? ceilings.other });
  const windows = crossed > 0 ? untilReset + (crossed - 1) * plan.windowSeconds : 0;
  const waitPending = WINDOW_WAITS.some((w) => plan.perCheck.has(checkId(w)) && !progress.finished.has(checkId(w)));
  const pending = waitPending ? untilReset : 0;
  return Math.max(leftAll * perRequest, windows, pending, progress.waitS) + CLOSING_S;
}
