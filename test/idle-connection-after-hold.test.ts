import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Outgoing } from '../src/http/request.js';
import { heldMs, holdUnderWayMs, watchHolds } from '../src/http/thread-holds.js';
import { closeDispatcher, IDLE_CONNECTION_MS, transport } from '../src/http/transport.js';

// A connection idle past `IDLE_CONNECTION_MS` is never reused, even when this thread was held by
// its own work across the moment undici's timer should have closed it (src/http/transport.ts,
// `retireHeldPools`). The target is a process of its own, so that holding this thread holds only the
// client; it names the connection each answer came on.

const TARGET = `
  let connections = 0;
  const server = require('node:http').createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-connection': String(req.socket.connection) });
    res.end('{}');
  });
  server.on('connection', (socket) => { socket.connection = ++connections; });
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

function get(path: string): Outgoing {
  return { spec: { path }, method: 'GET', url: `${baseUrl}${path}`, headers: {}, body: undefined, auth: 'none', bucket: 'anonymous', check: undefined };
}

/** Holds this thread, as synchronous work does: no timer, socket or promise runs meanwhile. */
function hold(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

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
