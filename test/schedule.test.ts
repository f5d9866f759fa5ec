import { describe, expect, test } from 'vitest';
import { referenceProfile } from '../reference/server.js';
import { propertyBudget } from '../src/check/property-budget.js';
import { poolSizeFor } from '../src/keys/pool-size.js';
import { estimate, loadEstimates, type RequestEstimates } from '../src/run/estimates.js';
import { remainingSeconds, schedule, type ScheduleInput } from '../src/run/schedule.js';

// Issue 33: a schedule before the first request, and a goal it is held to.

/** The goal for a full default run at the document's limits (60-s windows): 1.5 times the one-window floor. */
const GOAL_SECONDS = 90;

function fullRun(estimates: RequestEstimates, windowSeconds = 60): ScheduleInput {
  const base = referenceProfile();
  const profile = { ...base, limits: { ...base.limits, perKeyPerMinute: 100, unauthenticatedPerMinute: 20, windowSeconds } };
  const input = { profile, selection: { only: [], skip: [] }, readOnly: false, hasOtherAccountKey: true };
  const propertyRuns = propertyBudget();
  const keys = poolSizeFor({ readOnly: false, maxKeys: null }, () => estimate(estimates, input, 1, propertyRuns).requests.main, 100);
  return { ...input, keys, propertyRuns };
}

describe('the schedule', () => {
  test(`a full default run at 60-s windows is planned within ${GOAL_SECONDS} s, wherever in a window it starts`, () => {
    const plan = schedule(loadEstimates(), fullRun(loadEstimates()));
    const lines = plan.budgets.map((b) => `${b.count} × ${b.who}: ${b.requests} of ${b.ceiling}, ${b.windows} window(s)`);
    // Every budget within the one window the limits force: no check may push one into a second.
    for (const budget of plan.budgets) expect(budget.windows, lines.join('\n')).toBe(1);
    expect(plan.worstSeconds, lines.join('\n')).toBeLessThanOrEqual(GOAL_SECONDS);
  });

  test('the requests without a key of AUTH-1 and the like count toward the 21 of RATE-7: one window', () => {
    const plan = schedule(loadEstimates(), fullRun(loadEstimates()));
    const withoutKey = plan.budgets.find((b) => b.who === 'requests without a key')!;
    expect(withoutKey.requests).toBe(21);
    expect(withoutKey.windows).toBe(1);
  });

  test('a check added shows as requests and seconds, and the pool grows to keep the run in one window', () => {
    const estimates = loadEstimates();
    const before = schedule(estimates, fullRun(estimates));
    const added: RequestEstimates = { ...estimates, checks: [...estimates.checks, { clause: 'GEN-1', key: 'a-new-check', requests: { main: 400 } }] };
    const after = schedule(added, fullRun(added));
    expect(after.requests - before.requests).toBeGreaterThanOrEqual(400);
    expect(after.workSeconds).toBeGreaterThan(before.workSeconds);
    expect(after.keys).toBeGreaterThan(before.keys);
    // Past what the pool may hold, the configured key carries the rest into a second window, and the plan says so.
    const more: RequestEstimates = { ...estimates, checks: [...estimates.checks, { clause: 'GEN-1', key: 'a-large-check', requests: { main: 2000 } }] };
    const crowded = schedule(more, fullRun(more));
    expect(crowded.windows).toBeGreaterThan(1);
    expect(crowded.worstSeconds).toBeGreaterThan(GOAL_SECONDS);
  });

  test("the target's window, read from its headers, moves the prediction: a run started late in a window ends sooner", () => {
    const estimates = loadEstimates();
    const early = schedule(estimates, { ...fullRun(estimates), firstWindowEndsInS: 58 });
    const late = schedule(estimates, { ...fullRun(estimates), firstWindowEndsInS: 30 });
    expect(late.seconds).toBeLessThan(early.seconds);
    expect(early.seconds).toBeLessThanOrEqual(early.worstSeconds);
  });
});

describe('the estimate of the time left', () => {
  test('counts down from the schedule while the run keeps to it', () => {
    const plan = schedule(loadEstimates(), { ...fullRun(loadEstimates()), firstWindowEndsInS: 60 });
    const at = (elapsedS: number) => remainingSeconds(plan, { elapsedS, sent: Math.min(plan.requests, elapsedS * 200), waitS: 0 });
    const readings = [0, 10, 20, 30, 40, 50].map(at);
    for (let i = 1; i < readings.length; i++) expect(readings[i]!).toBeLessThan(readings[i - 1]!);
    expect(readings[0]).toBeCloseTo(plan.seconds, 0);
  });

  test('says more than the schedule when the run has fallen behind it: a wait now, and windows after it', () => {
    const plan = schedule(loadEstimates(), { ...fullRun(loadEstimates()), firstWindowEndsInS: 60 });
    const behind = remainingSeconds(plan, { elapsedS: plan.seconds, sent: plan.requests / 2, waitS: 30 });
    expect(behind).toBeGreaterThanOrEqual(30);
  });
});
