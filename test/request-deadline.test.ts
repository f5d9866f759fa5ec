import { afterAll, beforeAll, expect, test } from 'vitest';
import { TransportFailure } from '../src/http/failures.js';
import { closeDispatcher, transport } from '../src/http/transport.js';
import { getOf, hold, startTargetProcess, type TargetProcess } from './support/held-thread.js';

// A request's deadline counts the target's time, not the time the run's own thread was held by
// its own work (src/http/deadline.ts). The target is a process of its own, so that holding this
// thread holds only the client, as a run loading vitest beside its preflight does. Deadlines of
// 400 ms: long beside a local answer on a loaded machine, short beside the holds.
const DEADLINE_MS = 400;

let target: TargetProcess;

beforeAll(async () => {
  target = await startTargetProcess(`(req, res) => {
    if (req.url === '/hang') return;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  }`);
});

afterAll(async () => {
  await closeDispatcher();
  target.close();
});

const get = (path: string, timeoutMs: number) => getOf(target.baseUrl, path, timeoutMs);

test('an answer that arrived while the thread was held past the deadline is read, not timed out', async () => {
  const send = transport();
  // A connection first, as a run has one by its first check: the hold then delays only the answer.
  await send(get('/warm', 2000));
  const answer = send(get('/ok', DEADLINE_MS));
  hold(3 * DEADLINE_MS);
  const res = await answer;
  expect(res.status).toBe(200);
});

test('a request held before it was written still gets its deadline of the target’s time', async () => {
  const send = transport();
  const answer = send(get('/ok-cold', DEADLINE_MS));
  hold(3 * DEADLINE_MS);
  expect((await answer).status).toBe(200);
});

test('a target that never answers is timed out at its deadline, and within five times it however long the thread was held', async () => {
  const send = transport();
  const started = performance.now();
  await expect(send(get('/hang', DEADLINE_MS))).rejects.toSatisfy((e) => e instanceof TransportFailure && e.kind === 'timeout');
  const unheld = performance.now() - started;
  expect(unheld).toBeGreaterThanOrEqual(DEADLINE_MS - 5);

  let settled = false;
  const held = send(get('/hang', DEADLINE_MS))
    .catch((e: unknown) => e)
    .finally(() => (settled = true));
  hold(6 * DEADLINE_MS);
  // Held for six deadlines: the deadline had run its most (five) within the hold, so the request
  // fails within the loop's first turns after it. Counted in turns of the loop, not in the
  // machine's milliseconds, which a loaded machine stretches (a stress run beside this test: 2.76 s
  // against the 2.7 allowed): a deadline that counted only the target's time would wait another
  // 400 ms of turns.
  let turns = 0;
  const spin = () => {
    if (settled) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  const failure = await held;
  expect(failure).toBeInstanceOf(TransportFailure);
  expect((failure as TransportFailure).message).toContain(`timeout: no response within ${DEADLINE_MS} ms`);
  expect(turns).toBeLessThan(20);
});
