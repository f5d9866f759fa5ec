import { afterAll, beforeAll, expect, test } from 'vitest';
import { heldMs, holdUnderWayMs, watchHolds } from '../src/http/thread-holds.js';
import { closeDispatcher, IDLE_CONNECTION_MS, transport } from '../src/http/transport.js';
import { getOf, hold, startTargetProcess, type TargetProcess } from './support/held-thread.js';

// A connection that idled through a long hold of this thread is not reused: undici's timer that
// closes a connection idle for `IDLE_CONNECTION_MS` cannot run while the thread is held, and is not
// even set when the hold follows the answer in the same turn (src/http/transport.ts,
// `retireHeldPools`). The target (a process of its own) names the connection each answer came on.

let target: TargetProcess;

beforeAll(async () => {
  target = await startTargetProcess(`(req, res, connection) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-connection': String(connection) });
    res.end('{}');
  }`);
});

afterAll(async () => {
  await closeDispatcher();
  target.close();
});

const get = (path: string) => getOf(target.baseUrl, path);

test('a request sent right after the thread was held past the idle limit goes out on a new connection', async () => {
  const send = transport();
  const first = await send(get('/first'));
  // Held in the same turn of the loop as the answer and the send that follows: undici had not even
  // set its timer that closes the idle connection, and without the transport's retiring the pool
  // the request took it.
  hold(IDLE_CONNECTION_MS + 500);
  const second = await send(get('/second'));
  expect(Number(second.headers['x-connection'])).toBeGreaterThan(Number(first.headers['x-connection']));
});

test('the time a thread was held is measured while watched, the hold under way included', () => {
  const unwatch = watchHolds();
  try {
    const before = heldMs();
    hold(300);
    // At least the hold, less the tick and its jitter that a hold's start may fall within.
    expect(holdUnderWayMs()).toBeGreaterThanOrEqual(300 - 50 - 20);
    expect(heldMs() - before).toBeGreaterThanOrEqual(300 - 50 - 20);
  } finally {
    unwatch();
  }
});
