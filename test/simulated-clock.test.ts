import { Worker } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import { SIMULATED_TIME_HEADER as REFERENCE_HEADER } from '../reference/clock.js';
import { startReference, referenceProfile } from '../reference/server.js';
import { REAL_BELOW_MS, SIMULATED_TIME_HEADER, simulatedClock } from '../src/clock.js';
import { runCli } from './support/cli.js';
import { hold } from './support/held-thread.js';
import { expectOneKeyRunWithout429 } from './support/one-key-run.js';
import { SIMULATED_RUN_ENV } from './support/simulated.js';

// Time as a dependency (src/clock.ts): a wait for the target's time moves the simulated clock at
// once, never back; the run's threads read one time; the reference started on it reads the time
// each request tells. What the matrices' runs stand on (test/support/matrix.ts).

test('a wait of a whole window takes no real time, and the clock has moved by at least the wait', async () => {
  const clock = simulatedClock();
  const before = clock.now();
  const real = performance.now();
  await clock.sleep(60_000);
  expect(clock.now() - before).toBeGreaterThanOrEqual(60_000);
  expect(performance.now() - real).toBeLessThan(1000);
});

test('waits beside each other move the clock to the furthest of them, not by their sum', async () => {
  const clock = simulatedClock();
  const before = clock.now();
  await Promise.all([clock.sleep(5_000), clock.sleep(10_000), clock.sleep(2_000)]);
  const moved = clock.now() - before;
  expect(moved).toBeGreaterThanOrEqual(10_000);
  expect(moved).toBeLessThan(11_000);
});

test('a wait shorter than a poll passes in real time: it waits for an answer on its way, not for the target', async () => {
  const clock = simulatedClock();
  const before = clock.now();
  const real = performance.now();
  await clock.sleep(REAL_BELOW_MS / 2);
  expect(performance.now() - real).toBeGreaterThanOrEqual(REAL_BELOW_MS / 2 - 5);
  // Real time passed, and no more.
  expect(clock.now() - before).toBeLessThan(REAL_BELOW_MS * 10);
});

test("two clocks over one shared offset (the run's threads) read one time, and it never goes back", async () => {
  const main = simulatedClock();
  const worker = simulatedClock(main.shared!);
  await main.sleep(30_000);
  // Read between two readings of the other: the same time, however long a loaded machine takes
  // between the lines (a bound of 50 ms between two readings measured the machine).
  const before = main.now();
  const read = worker.now();
  expect([read >= before, read <= main.now()]).toEqual([true, true]);
  const reading = worker.now();
  await worker.sleep(1_000);
  await main.sleep(500); // already passed on the shared clock: moves nothing back
  expect(main.now()).toBeGreaterThanOrEqual(reading + 1_000);
});

test("a wait in another thread does not move the clock between an answer and the request sent on it: the continuation's thread may be taken meanwhile", async () => {
  const clock = simulatedClock();
  let answered = clock.requestBegun();
  const before = clock.now();
  const waiter = new Worker(new URL('./support/clock-sleeper.ts', import.meta.url), { workerData: clock.shared, execArgv: ['--import', 'tsx'] });
  // A thread that fails to start or ends early fails the test at once instead of leaving it to wait.
  const said = (word: string) =>
    new Promise<void>((resolve, reject) => {
      waiter.on('message', (m) => m === word && resolve());
      waiter.once('error', reject);
      waiter.once('exit', (code) => reject(new Error(`the waiting thread ended (${code}) before saying '${word}'`)));
    });
  const done = said('done');
  done.catch(() => undefined); // awaited below, once the test gets there
  try {
    await said('waiting');
    for (let i = 0; i < 5; i++) {
      // An answer, and the next request its continuation sends, with the thread held between them
      // (a loaded machine's scheduler, a long synchronous step), as no wait of its own.
      answered();
      hold(20);
      answered = clock.requestBegun();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    expect(clock.now() - before).toBeLessThan(60_000);
    answered();
    await done;
    expect(clock.now() - before).toBeGreaterThanOrEqual(60_000);
  } finally {
    // Also where an assertion failed: the wait would otherwise poll on, its window never passing.
    await waiter.terminate();
  }
});

test('the reference on the stamped clock opens a new window when a request tells it the old one has passed', async () => {
  expect(REFERENCE_HEADER).toBe(SIMULATED_TIME_HEADER);
  const base = referenceProfile();
  const target = await startReference({ clock: 'stamped', windowSeconds: 60, profile: { ...base, limits: { ...base.limits, perKeyPerMinute: 2 } } });
  try {
    const clock = simulatedClock();
    const get = () =>
      fetch(`${target.url}/api/v1/workspaces`, {
        headers: { authorization: `Bearer ${target.keys.main}`, [SIMULATED_TIME_HEADER]: String(Math.round(clock.now())) },
      });
    // A second into a window first: the reference's windows are aligned to the minute, and three
    // requests sent in real time across a boundary meet two windows (a stress run beside a busy core).
    await clock.sleep(60_000 - (clock.now() % 60_000) + 1_000);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get()).status);
    expect(statuses).toEqual([200, 200, 429]);
    await clock.sleep(60_000);
    const again = await get();
    expect(again.status).toBe(200);
    // Its Date is the run's time, not the machine's.
    expect(Math.abs(Date.parse(again.headers.get('date')!) - clock.now())).toBeLessThan(2_000);
    expect(Number(again.headers.get('x-ratelimit-reset')) * 1000).toBeGreaterThan(Date.now() + 60_000);
  } finally {
    await target.close();
  }
});

// A run host started before the machine's clock was stepped (NTP, a hypervisor's time sync) runs
// on a clock apart from the machine's, which the reference reads. CI met it: the machine's clock
// 1.2 s ahead of the run's, the reference followed the run's time from its first jump, fell back
// by 1.2 s against it, and the run, reading by the offset it had measured, met a 429 each window.
describe.concurrent("the reference on the stamped clock, with the machine's clock apart from the run's", () => {
  for (const apartMs of [1_230, -1_230]) {
    test(`${apartMs > 0 ? 'ahead' : 'behind'} by ${Math.abs(apartMs)} ms: a one-key run meets no 429, no window comes early`, () =>
      expectOneKeyRunWithout429({ machineClock: () => Date.now() + apartMs }));
  }
});

test('a run on the simulated clock against a target that does not read its time stops at the preflight: one line, exit 2', async () => {
  const target = await startReference({ windowSeconds: 1 });
  try {
    const result = await runCli(['--only', 'GEN-2'], {
      CONFORMANCE_BASE_URL: target.url,
      CONFORMANCE_API_KEY: target.keys.main,
      ...SIMULATED_RUN_ENV,
    });
    expect(result.exitCode, result.stdout).toBe(2);
    expect(result.stderr.trim().split('\n').at(-1)).toMatch(
      /^CONF_SETTING_INVALID: CONFORMANCE_SIMULATED_CLOCK is the project's own tests' setting: the target at http:\/\/127\.0\.0\.1:\d+ does not read the run's time/,
    );
  } finally {
    await target.close();
  }
}, 60_000);
