import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { TransportFailure } from '../src/http/failures.js';
import type { Outgoing } from '../src/http/request.js';
import { closeDispatcher, transport } from '../src/http/transport.js';

// A request's deadline counts the target's time, not the time the run's own thread was held by
// its own work (src/http/deadline.ts). The target is a process of its own, so that holding this
// thread holds only the client, as a run loading vitest beside its preflight does. Deadlines of
// 400 ms: long beside a local answer on a loaded machine, short beside the holds.
const DEADLINE_MS = 400;

const TARGET = `
  const server = require('node:http').createServer((req, res) => {
    if (req.url === '/hang') return;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
  process.on('disconnect', () => process.exit(0));
`;

let target: ChildProcess;
let baseUrl: string;

beforeAll(async () => {
  target = spawn(process.execPath, ['-e', TARGET], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => target.once('message', (m) => resolve(m as number)));
  baseUrl = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await closeDispatcher();
  target.disconnect();
});

function get(path: string, timeoutMs: number): Outgoing {
  return {
    spec: { path },
    method: 'GET',
    url: `${baseUrl}${path}`,
    headers: {},
    body: undefined,
    auth: 'none',
    bucket: 'anonymous',
    check: undefined,
    timeoutMs,
  };
}

/** Holds this thread, as synchronous work does: no timer, socket or promise runs meanwhile. */
function hold(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

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

  const again = performance.now();
  const held = send(get('/hang', DEADLINE_MS)).catch((e: unknown) => e);
  hold(6 * DEADLINE_MS);
  const failure = await held;
  expect(failure).toBeInstanceOf(TransportFailure);
  expect((failure as TransportFailure).message).toContain(`timeout: no response within ${DEADLINE_MS} ms`);
  // Held for six deadlines: the deadline had run its most (five) within the hold.
  expect(performance.now() - again).toBeLessThan(6 * DEADLINE_MS + 300);
});
