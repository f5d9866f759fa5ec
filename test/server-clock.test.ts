import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Exchange } from '../src/http/exchange.js';
import { rateHeaders } from '../src/http/rate-headers.js';
import { ServerClock, serverClockOf } from '../src/http/server-clock.js';
import { RUN_WIDE_JUDGES } from '../src/judge/run-wide.js';
import { retryAfterMs } from '../src/http/layers/retry-unanswered.js';
import { Pacer } from '../src/pacing/pacer.js';
import { parseProfile } from '../src/profile/profile.js';
import { clockLine, clockOf, clocksApart } from '../src/report/clock.js';

// Times the API sends are judged and waited for on the API's clock, as its Date headers tell it,
// not on the clock of the machine the suite runs on (docs/judging.md, "What the suite's machine
// decides"). Here the suite's clock is 90 s ahead of the target's, as on a CI runner that lost NTP.

const SUITE_AHEAD_MS = 90_000;
/** The suite's clock, some moment in a run (not a whole second, as a clock never is). */
const suiteT0 = 1_795_000_000_437;
const profile = parseProfile({ name: 't', limits: { perKeyPerMinute: 100, unauthenticatedPerMinute: 20, windowSeconds: 60 } });

/** An answer made at `at` on the suite's clock by a target whose clock is `aheadMs` behind it, its window ending `resetInS` later. */
function answer(at: number, resetInS: number, options: { aheadMs?: number; date?: boolean; remaining?: number } = {}): Exchange {
  const serverNow = at - (options.aheadMs ?? SUITE_AHEAD_MS);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-ratelimit-limit': '100',
    'x-ratelimit-remaining': String(options.remaining ?? 50),
    'x-ratelimit-reset': String(Math.ceil(serverNow / 1000) + resetInS),
  };
  if (options.date !== false) headers['date'] = new Date(serverNow).toUTCString();
  return {
    startedAt: new Date(at - 3).toISOString(),
    durationMs: 3,
    auth: 'main',
    bucket: 'key:a',
    request: { method: 'GET', url: 'http://t/api/v1/workspaces', headers: {} },
    response: { status: 200, headers, body: '{}', bytes: 2, truncated: false, json: 'ok' },
  };
}

/** The same answer with a `Date` `lagMs` older, as a server that keeps its `Date` sends it. */
function staled(e: Exchange, lagMs: number): Exchange {
  const headers = { ...e.response!.headers, date: new Date(Date.parse(e.response!.headers['date']!) - lagMs).toUTCString() };
  return { ...e, response: { ...e.response!, headers } };
}

/** A run's answers spread over a few seconds, as the estimate sees them. */
const spread = (aheadMs: number) => Array.from({ length: 40 }, (_, i) => answer(suiteT0 + i * 137, 30, { aheadMs }));

describe('the target clock, from its Date headers', () => {
  test('answers spread over seconds narrow the offset to well under the second a Date header is rounded to', () => {
    const estimate = serverClockOf(spread(SUITE_AHEAD_MS)).estimate()!;
    expect(estimate.apart).toBe(true);
    expect(Math.abs(estimate.offsetMs + SUITE_AHEAD_MS)).toBeLessThanOrEqual(estimate.withinMs);
    expect(estimate.withinMs).toBeLessThan(150);
  });

  test('where the clocks agree, nothing is corrected: the waits keep their own margin', () => {
    const clock = serverClockOf(spread(0));
    expect(clock.estimate()!.apart).toBe(false);
    expect(clock.correctionMs()).toBe(0);
  });

  test('a moment the target names is never read as earlier than it is on the suite clock', () => {
    for (const offset of [SUITE_AHEAD_MS, -SUITE_AHEAD_MS, 2_500]) {
      const clock = serverClockOf(spread(offset));
      const serverMoment = suiteT0 - offset + 10_000;
      // True suite time of that moment: serverMoment + offset.
      expect(clock.toSuite(serverMoment)).toBeGreaterThanOrEqual(serverMoment + offset);
      expect(clock.toSuite(serverMoment) - (serverMoment + offset)).toBeLessThan(1_000);
    }
  });

  test("a Date kept for a connection's life (uvicorn 0.17) neither restarts nor collapses the estimate: it is counted stale, the freshest reading stands", () => {
    const lagging = spread(SUITE_AHEAD_MS).map((e, i) => (i % 3 === 0 ? e : staled(e, 1_000 + (i % 15) * 1_000)));
    const estimate = serverClockOf(lagging).estimate()!;
    expect(estimate.restarts).toBe(0);
    expect(estimate.stale).toBeGreaterThan(20);
    expect(estimate.maxLagMs).toBeGreaterThan(13_000);
    // The true offset, within a second: no stale answer moves the estimate off it, nor narrows it past it.
    expect(Math.abs(estimate.offsetMs + SUITE_AHEAD_MS)).toBeLessThanOrEqual(estimate.withinMs);
    expect(estimate.withinMs).toBeLessThan(1_000);
    // On one machine, where Dates lag, the clocks are not said to be apart.
    expect(serverClockOf(spread(0).map((e, i) => (i % 3 === 0 ? e : staled(e, 1_500)))).estimate()!.apart).toBe(false);
    expect(clockLine(clockOf(lagging))).toMatch(/of its Date headers lagged the freshest reading, by up to 1\d\.\d s/);
  });

  test('the estimate kept up to date answer by answer is the one measured over all the answers at once', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ lagMs: fc.integer({ min: 0, max: 15_000 }), gapMs: fc.integer({ min: 1, max: 900 }) }), { minLength: 1, maxLength: 60 }),
        (answers) => {
          const kept = new ServerClock();
          const samples: [number, number, number][] = [];
          let at = suiteT0;
          for (const { lagMs, gapMs } of answers) {
            at += gapMs;
            const sample: [number, number, number] = [Math.floor((at - SUITE_AHEAD_MS - lagMs) / 1000) * 1000, at - 3, at];
            samples.push(sample);
            kept.observe(...sample);
            kept.correctionMs();
            const whole = new ServerClock();
            for (const s of samples) whole.observe(...s);
            expect(kept.estimate()).toEqual(whole.estimate());
          }
        },
      ),
    );
  });

  test('a clock ahead of the earlier answers (another host, a gateway) is followed, the earlier answers counted stale', () => {
    const clock = new ServerClock();
    clock.observe(suiteT0, suiteT0 - 5, suiteT0);
    clock.observe(suiteT0 + 30_000, suiteT0 + 100, suiteT0 + 105);
    const estimate = clock.estimate()!;
    expect(estimate.restarts).toBe(0);
    expect(estimate.stale).toBe(1);
    expect(Math.abs(estimate.offsetMs - 29_900)).toBeLessThan(1_000);
  });

  test('the report states the skew as a fact of the run, in one line', () => {
    const figures = clockOf(spread(SUITE_AHEAD_MS));
    expect(figures.samples).toBe(40);
    expect(clockLine(figures)).toMatch(/^clock: the target's clock is 90\.0 s behind the suite's \(±\d+ ms, from 40 Date header\(s\)\)/);
    expect(clockLine(clockOf([answer(suiteT0, 30, { date: false })]))).toMatch(/sent no Date header/);
  });
});

describe('RATE-2 reads X-RateLimit-Reset on the target clock', () => {
  test('a Reset 30 s ahead of its own Date is right, though 60 s behind the suite clock', () => {
    expect(RUN_WIDE_JUDGES['RATE-2'](spread(SUITE_AHEAD_MS), profile)).toEqual([]);
    expect(RUN_WIDE_JUDGES['RATE-2'](spread(-SUITE_AHEAD_MS), profile)).toEqual([]);
  });

  test('a Reset minutes in the past of its own Date is still a finding, and says against what it was read', () => {
    const stale = answer(suiteT0, -387);
    const [violation] = RUN_WIDE_JUDGES['RATE-2']([...spread(SUITE_AHEAD_MS), stale], profile);
    expect(violation?.reason).toMatch(/lies 38\d s before the target's time \(more than 120 s, read against the Date headers of the run\)/);
  });

  test('a Reset in milliseconds, or a count of seconds, is a finding', () => {
    const inMs = answer(suiteT0, 30);
    inMs.response!.headers['x-ratelimit-reset'] = String(Number(inMs.response!.headers['x-ratelimit-reset']) * 1000);
    const relative = answer(suiteT0, 30);
    relative.response!.headers['x-ratelimit-reset'] = '30';
    const reasons = RUN_WIDE_JUDGES['RATE-2']([...spread(SUITE_AHEAD_MS), inMs, relative], profile).map((v) => v.reason);
    expect(reasons).toEqual([
      expect.stringMatching(/ahead of the target's time.*not a Unix time in seconds/),
      expect.stringMatching(/before the target's time/),
    ]);
  });

  test("a right Reset on an answer whose Date lagged 15 s (uvicorn's kept-alive connections) is no finding, at 3-s windows and at 60-s", () => {
    for (const windowSeconds of [3, 60]) {
      const windowed = parseProfile({ name: 't', limits: { perKeyPerMinute: 100, unauthenticatedPerMinute: 20, windowSeconds } });
      const log = spread(SUITE_AHEAD_MS).map((e, i) => (i % 4 === 0 ? e : staled(e, 15_000)));
      expect(RUN_WIDE_JUDGES['RATE-2'](log, windowed)).toEqual([]);
    }
  });

  test('an answer without Date is read on the run offset its other answers give', () => {
    const undated = answer(suiteT0 + 10_000, 30, { date: false });
    expect(RUN_WIDE_JUDGES['RATE-2']([...spread(SUITE_AHEAD_MS), undated], profile)).toEqual([]);
  });
});

describe('the pacer waits for the window the target names, on its clock', () => {
  test('a spent budget waits until the Reset, read through the Date, not a fallback count of its own', () => {
    let now = suiteT0;
    const pacer = new Pacer({ perKey: 100, anonymous: 20, windowMs: 60_000, marginMs: 250, now: () => now });
    for (const e of spread(SUITE_AHEAD_MS)) pacer.serverClock.observeExchange(e);
    now = suiteT0 + 40 * 137;
    const last = answer(now, 30, { remaining: 0 });
    pacer.serverClock.observeExchange(last);
    pacer.observe('k', false, 200, rateHeaders(last.response!.headers), false);
    const delay = pacer.delay('k', false);
    // The window ends 29-30 s after the answer on the target's clock (its Reset is whole seconds, rounded up).
    expect(delay).toBeGreaterThan(29_000);
    expect(delay).toBeLessThan(31_500);
  });
});

describe('a Retry-After that is an HTTP date', () => {
  test('is a wait from the Date of the same answer, not from the suite clock', () => {
    const date = new Date(suiteT0 - SUITE_AHEAD_MS);
    const at = new Date(date.getTime() + 7_000);
    expect(retryAfterMs({ date: date.toUTCString(), 'retry-after': at.toUTCString() })).toBe(7_000);
    expect(retryAfterMs({ 'retry-after': '7' })).toBe(7_000);
  });
});

describe('the terminal names the skew', () => {
  test('where the clocks are a second apart or more, not for the milliseconds the suite measures against a target on its own machine', () => {
    expect(clocksApart(clockOf(spread(SUITE_AHEAD_MS)))).toBe(true);
    expect(clocksApart(clockOf(spread(7)))).toBe(false);
  });
});
