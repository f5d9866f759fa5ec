import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { REAL_CLOCK, useClock, type Clock } from '../src/clock.js';
import { endedAt } from '../src/http/exchange.js';
import { closeDispatcher, transport } from '../src/http/transport.js';
import { getOf } from './support/held-thread.js';

// An exchange's times bound its request and its answer on the suite's clock: it began no later
// than the request left, and ended (start plus duration) no earlier than the answer came. The
// target's clock is read against them (src/http/server-clock.ts), and the pacer waits for a window
// by that reading: an answer time earlier than the answer made the target seem ahead, and a
// window's first request went too soon (an unplanned 429 against the reference, beside a busy core).

/** How long the thread is held once the exchange has taken its start, as a loaded machine holds it. */
const HELD_MS = 200;

let server: Server;
let baseUrl: string;
/** The suite's clock as the target read it while it answered. */
let seenByTarget: number[] = [];

beforeAll(async () => {
  server = createServer((_req, res) => {
    seenByTarget.push(held.now());
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  useClock(REAL_CLOCK);
  await closeDispatcher();
  await new Promise((resolve) => server.close(resolve));
});

/**
 * The real clock, but every reading after the first comes `HELD_MS` later: the thread was held
 * right after the exchange took its start, before its request was written.
 */
let readings = 0;
const held: Clock = { ...REAL_CLOCK, now: () => REAL_CLOCK.now() + (readings++ > 0 ? HELD_MS : 0) };

const get = (path: string) => getOf(baseUrl, path);

test('an exchange ends no earlier than its answer came, though the thread was held between its start and its request', async () => {
  const send = transport();
  // A connection first: the held exchange's request is then written at once.
  await send(get('/warm'));
  useClock(held);
  readings = 0;
  seenByTarget = [];
  try {
    const { exchange } = await send(get('/held'));
    expect(seenByTarget).toHaveLength(1);
    expect(Date.parse(exchange.startedAt)).toBeLessThanOrEqual(seenByTarget[0]!);
    expect(endedAt(exchange)).toBeGreaterThanOrEqual(seenByTarget[0]!);
  } finally {
    useClock(REAL_CLOCK);
  }
});
