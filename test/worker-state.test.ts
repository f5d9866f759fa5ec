import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Broker } from '../src/broker/broker.js';
import { serveBroker, type RunningBroker } from '../src/broker/channel.js';
import { WorkerState } from '../src/check/worker.js';
import { closeDispatcher } from '../src/http/client.js';
import type { RunContext } from '../src/check/run-context.js';

// A shared client names, on every exchange, the check the request was made for: the log's
// evidence says which check sent what, also when concurrent checks overlap.

let server: Server;
let broker: RunningBroker;
let state: WorkerState;

beforeAll(async () => {
  server = createServer((_req, res) => res.setHeader('content-type', 'application/json').end('{}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  broker = await serveBroker(new Broker({ keyPrefix: 'sk_', ledgerFile: null, pacer: { perKey: 1e9, anonymous: 1e9, windowMs: 60_000, marginMs: 0 } }));
  // What the worker's clients read of the run; the rest is the checks'.
  const run = {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    keys: { main: 'sk_worker_state_test_key', other: null },
    extraHeaders: [],
    timeoutMs: 5_000,
    readOnly: false,
    keyPool: [],
    broker: broker.address,
  } as unknown as RunContext;
  state = new WorkerState(run);
});

afterAll(async () => {
  await broker.close();
  await closeDispatcher();
  await new Promise((resolve) => server.close(resolve));
});

async function checksOf(...paths: string[]): Promise<(string | undefined)[]> {
  const log = await state.broker.log();
  return paths.map((path) => log.find((e) => new URL(e.request.url).pathname === path)?.check);
}

test('requests of shared clients name the check each was made for, while the checks run beside each other', async () => {
  let startA!: () => void;
  const bStarted = new Promise<void>((resolve) => (startA = resolve));
  const a = (async () => {
    await bStarted;
    await state.sharedClientFor('A').get('/api/v1/from-a');
  })();
  const b = (async () => {
    startA();
    await state.sharedClientFor('B').get('/api/v1/from-b');
  })();
  await Promise.all([a, b]);
  expect(await checksOf('/api/v1/from-a', '/api/v1/from-b')).toEqual(['A', 'B']);
});

test('shared work names the check that began it, though another check awaits it too', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let shared: Promise<unknown> | null = null;
  // As `t.once` does: the first caller's make runs, with the first caller's client.
  const once = (check: string) =>
    (shared ??= (async () => {
      await gate;
      return state.sharedClientFor(check).get('/api/v1/shared');
    })());
  const first = once('first');
  const second = (async () => {
    release();
    await once('second');
    await state.sharedClientFor('second').get('/api/v1/from-second');
  })();
  await Promise.all([first, second]);
  expect(await checksOf('/api/v1/shared', '/api/v1/from-second')).toEqual(['first', 'second']);
});
