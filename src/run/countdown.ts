import { CLOSING_S, checkId, WINDOW_WAITS, type Schedule } from './schedule.js';

// The schedule counted down as the run goes: the time the heartbeat says the run still needs.

/** Planned requests of finished checks before their actual count revises the rest of the plan. */
const REVISE_AFTER_REQUESTS = 10;

/** Requests sent: all of them, and of those, the main account's work (the configured key's, spread over the pool). */
export interface Sent {
  readonly all: number;
  readonly main: number;
}

/** Where the run stands, for the estimate of the time it still needs. */
export interface Progress {
  /** The checks finished (`checkId`), each with the requests it sent. */
  readonly finished: ReadonlyMap<string, Sent>;
  /** Requests the run has sent since the schedule was made. */
  readonly sent: Sent;
  /** The main account's keys (the configured one and the pool's): requests they may still send in this window, and seconds until it ends (null: unknown). */
  readonly standing: { readonly room: number; readonly untilResetS: number | null };
  /** Seconds until the longest wait for a budget going on now ends; 0 without one. */
  readonly waitS: number;
}

/**
 * Seconds the run still needs, from its schedule: the requests of the checks not yet finished,
 * on the main account's keys beyond what their window still allows, in windows to wait; a check
 * still to wait a window out (RATE-5), at least to the end of this one; and the requests at the
 * target's pace. It counts down as windows pass and checks finish; where the finished checks sent
 * fewer or more requests than planned (a target with less data, or more, than the one the
 * estimates were measured on), the checks still to run are expected to do the same.
 */
export function remainingSeconds(plan: Schedule, progress: Progress): number {
  const perRequest = plan.secondsPerRequest;
  let leftMain = 0;
  let leftAll = 0;
  let plannedDone = 0;
  let sentDone = 0;
  let sentDoneMain = 0;
  for (const [id, requests] of plan.perCheck) {
    const sent = progress.finished.get(id);
    if (sent === undefined) {
      leftMain += requests.main;
      leftAll += requests.all;
    } else {
      plannedDone += requests.all;
      sentDone += sent.all;
      sentDoneMain += sent.main;
    }
  }
  // Revised only on evidence: a few checks' worth of requests, and never past a factor of four.
  const ratio = plannedDone >= REVISE_AFTER_REQUESTS ? Math.min(4, Math.max(0.25, sentDone / plannedDone)) : 1;
  // The checks under way have sent part of theirs: what the run sent beyond the finished checks and
  // its own (the pool's keys made and deleted by the configured key), counted apart on the main
  // account: requests without a key or on another key spend none of its windows, and once counted
  // against them, the estimate rose by as many when their check finished.
  const underWay = Math.max(0, progress.sent.all - sentDone - plan.ownRequests);
  const underWayMain = Math.max(0, progress.sent.main - sentDoneMain - plan.ownRequests);
  leftMain = Math.max(0, Math.round(leftMain * ratio) - underWayMain);
  leftAll = Math.max(0, Math.round(leftAll * ratio) - underWay);
  const mainAccount = plan.budgets.filter((b) => b.who === 'the configured key' || b.who === 'keys of the pool');
  const perWindow = Math.max(
    1,
    mainAccount.reduce((sum, b) => sum + b.ceiling * b.count, 0),
  );
  const untilReset = progress.standing.untilResetS ?? plan.windowSeconds;
  const beyond = leftMain - progress.standing.room;
  const windows = beyond > 0 ? untilReset + (Math.ceil(beyond / perWindow) - 1) * plan.windowSeconds : 0;
  const waitPending = WINDOW_WAITS.some((w) => plan.perCheck.has(checkId(w)) && !progress.finished.has(checkId(w)));
  const pending = waitPending ? untilReset : 0;
  return Math.max(leftAll * perRequest, windows, pending, progress.waitS) + CLOSING_S;
}
