import { describe, expect, test } from 'vitest';
import { referenceProfile } from '../reference/server.js';
import { propertyBudget } from '../src/check/property-budget.js';
import { poolSizeFor } from '../src/keys/pool-size.js';
import { estimate, loadEstimates, strengthOf, type RequestEstimates } from '../src/run/estimates.js';
import { remainingSeconds, type Sent } from '../src/run/countdown.js';
import type { Exchange } from '../src/http/exchange.js';
import { HEADERLESS_BURST, schedule, targetPace, type Schedule, type ScheduleInput } from '../src/run/schedule.js';
import { CLIENT_ADDRESS_HEADERS } from '../suites/catalogues/request-headers.js';

// Issue 33: a schedule before the first request, and a goal it is held to.

/** The goal for a full default run at the document's limits (60-s windows): 1.5 times the one-window floor. */
const GOAL_SECONDS = 90;

function fullRun(estimates: RequestEstimates, windowSeconds = 60): ScheduleInput {
  const base = referenceProfile();
  const profile = { ...base, limits: { ...base.limits, perKeyPerMinute: 100, unauthenticatedPerMinute: 20, windowSeconds } };
  const input = { profile, selection: { only: [], skip: [] }, readOnly: false, hasOtherAccountKey: true };
  const propertyRuns = propertyBudget();
  const keys = poolSizeFor({ readOnly: false, maxKeys: null }, () => estimate(estimates, input, 1, strengthOf(propertyRuns)).requests.main, 100);
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

  test('the requests without a key of AUTH-1 and the like count toward the 21 of RATE-7, whose requests past its 429 need no budget: one window', () => {
    const plan = schedule(loadEstimates(), fullRun(loadEstimates()));
    const withoutKey = plan.budgets.find((b) => b.who === 'requests without a key')!;
    expect(withoutKey.requests).toBe(21 + HEADERLESS_BURST.afterCeiling);
    expect(withoutKey.windows).toBe(1);
  });

  test("RATE-7's requests past its 429 are two per request header naming another client address, and one without", () => {
    expect(HEADERLESS_BURST.afterCeiling).toBe(2 * CLIENT_ADDRESS_HEADERS.length + 1);
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

  test("the pool at its most keys keeps the run in one window: each pool key's deletion counts once on the configured key's budget", () => {
    const estimates = loadEstimates();
    const added: RequestEstimates = { ...estimates, checks: [...estimates.checks, { clause: 'GEN-1', key: 'a-new-check', requests: { main: 200 } }] };
    const plan = schedule(added, fullRun(added));
    const lines = plan.budgets.map((b) => `${b.count} × ${b.who}: ${b.requests} of ${b.ceiling}, ${b.windows} window(s)`);
    expect(plan.keys, lines.join('\n')).toBe(25);
    for (const budget of plan.budgets) expect(budget.windows, lines.join('\n')).toBe(1);
  });

  test("another ceiling in the target's X-RateLimit-Limit than the profile's: the plan keeps to the target's", () => {
    const estimates = loadEstimates();
    const asDeclared = schedule(estimates, fullRun(estimates));
    const halved = schedule(estimates, { ...fullRun(estimates), perKeyCeiling: 50 });
    expect(halved.windows).toBeGreaterThan(asDeclared.windows);
    expect(halved.worstSeconds).toBeGreaterThan(asDeclared.worstSeconds);
  });

  test("the plan takes the target's X-RateLimit-Limit where it is below the declared ceiling, never where it is above it", () => {
    const answered = (limit: string): Exchange[] => [
      {
        startedAt: new Date(0).toISOString(),
        durationMs: 5,
        auth: 'main',
        bucket: 'key:a',
        request: { method: 'GET', url: 'http://t/api/v1/workspaces', headers: {} },
        response: { status: 200, headers: { 'x-ratelimit-limit': limit, 'x-ratelimit-remaining': '40' }, body: '{}', bytes: 2, truncated: false, json: 'ok' },
      },
    ];
    const limits = { windowSeconds: 60, perKeyPerMinute: 100 };
    expect(targetPace(answered('50'), limits, 0).perKeyCeiling).toBe(50);
    // A claim of more than the keys are held to (RATE-2's to judge): a pool sized on it would wait
    // for windows the plan never counted.
    expect(targetPace(answered('1000'), limits, 0).perKeyCeiling).toBeNull();
    expect(targetPace(answered('100'), limits, 0).perKeyCeiling).toBeNull();
  });

  test('at windows shorter than the run, the requests without a key of AUTH-1 and RATE-7 fall in windows apart, none waited for', () => {
    const estimates = loadEstimates();
    const plan = schedule(estimates, fullRun(estimates, 1));
    expect(plan.budgets.find((b) => b.who === 'requests without a key')!.requests).toBeGreaterThan(21);
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
  const oneKey = () => {
    const estimates = loadEstimates();
    return schedule(estimates, { ...fullRun(estimates), keys: 1, firstWindowEndsInS: 60 });
  };

  test('counts down as the checks finish and the window passes, from the whole schedule to the closing', () => {
    const plan = oneKey();
    const ids = [...plan.perCheck.keys()];
    const at = (share: number, untilResetS: number) =>
      remainingSeconds(plan, {
        finished: asPlanned(plan, ids.slice(0, Math.round(ids.length * share))),
        sent: sentBy(plan, ids.slice(0, Math.round(ids.length * share))),
        standing: { room: 0, untilResetS },
        waitS: 0,
      });
    const readings = [at(0, 60), at(0.25, 45), at(0.5, 30), at(0.75, 15), at(1, 0)];
    for (let i = 1; i < readings.length; i++) expect(readings[i]!).toBeLessThan(readings[i - 1]!);
    // The whole run on one key: its requests over the key's ceiling, in windows.
    const main = [...plan.perCheck.values()].reduce((sum, c) => sum + c.main, 0);
    expect(readings[0]).toBeGreaterThanOrEqual(60 + (Math.ceil(main / plan.budgets[0]!.ceiling) - 1) * 60);
    expect(readings[4]).toBeLessThan(5);
  });

  test('where the finished checks sent half their plan, the checks still to run are expected to send half theirs', () => {
    const plan = oneKey();
    const ids = [...plan.perCheck.keys()];
    const half = ids.slice(0, ids.length / 2);
    const standing = { room: 0, untilResetS: 30 };
    const asPlannedLeft = remainingSeconds(plan, { finished: asPlanned(plan, half), sent: sentBy(plan, half), standing, waitS: 0 });
    const halved = new Map(half.map((id) => [id, { all: Math.floor(plan.perCheck.get(id)!.all / 2), main: Math.floor(plan.perCheck.get(id)!.main / 2) }]));
    const sentHalf = { all: sentBy(plan, half).all / 2, main: sentBy(plan, half).main / 2 };
    expect(remainingSeconds(plan, { finished: halved, sent: sentHalf, standing, waitS: 0 })).toBeLessThan(asPlannedLeft);
  });

  test("a check under way that sends no request on the main key takes nothing off the main key's windows, so that its end adds none back", () => {
    const plan = oneKey();
    // A check whose requests go without a key or on another key, still under way, then finished, having sent them all.
    const [id, planned] = [...plan.perCheck].find(([, c]) => c.main === 0 && c.all >= 8)!;
    const sent = { all: plan.ownRequests + planned.all, main: plan.ownRequests };
    const standing = { room: 0, untilResetS: 30 };
    const underWay = remainingSeconds(plan, { finished: new Map(), sent, standing, waitS: 0 });
    const finished = remainingSeconds(plan, { finished: new Map([[id, { all: planned.all, main: 0 }]]), sent, standing, waitS: 0 });
    expect(finished).toBeLessThanOrEqual(underWay);
    expect(underWay).toBe(remainingSeconds(plan, { finished: new Map(), sent: { all: plan.ownRequests, main: plan.ownRequests }, standing, waitS: 0 }));
  });

  test('a wait going on now, or a check still to wait a window out, is never said to be over before it is', () => {
    const plan = oneKey();
    const allButRate5 = asPlanned(
      plan,
      [...plan.perCheck.keys()].filter((id) => id !== 'RATE-5/retry-after-honoured'),
    );
    expect(
      remainingSeconds(plan, { finished: allButRate5, sent: { all: 0, main: 0 }, standing: { room: 100, untilResetS: 40 }, waitS: 0 }),
    ).toBeGreaterThanOrEqual(40);
    expect(
      remainingSeconds(plan, {
        finished: asPlanned(plan, [...plan.perCheck.keys()]),
        sent: { all: 0, main: 0 },
        standing: { room: 100, untilResetS: 40 },
        waitS: 25,
      }),
    ).toBeGreaterThanOrEqual(25);
  });
});

/** Checks finished, each having sent what the plan said. */
function asPlanned(plan: Schedule, ids: readonly string[]): Map<string, Sent> {
  return new Map(ids.map((id) => [id, { all: plan.perCheck.get(id)!.all, main: plan.perCheck.get(id)!.main }]));
}

/** What those checks sent, as planned, with the run's own requests. */
function sentBy(plan: Schedule, ids: readonly string[]): Sent {
  const of = (kind: keyof Sent) => plan.ownRequests + ids.reduce((sum, id) => sum + plan.perCheck.get(id)![kind], 0);
  return { all: of('all'), main: of('main') };
}
