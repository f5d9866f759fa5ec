import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Broker } from '../src/broker/broker.js';
import { serveBroker, type RunningBroker } from '../src/broker/channel.js';
import { WorkerState } from '../src/check/worker.js';
import { closeDispatcher } from '../src/http/client.js';
import type { RunContext } from '../src/check/run-context.js';

// The worker's shared client names, on every exchange, the check the request was made for: the
// log's evidence says which check sent what, also when concurrent checks overlap.

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

test('a request of the shared client names its own check while another check, started later, runs beside it', async () => {
  let startA!: () => void;
  const bStarted = new Promise<void>((resolve) => (startA = resolve));
  const a = state.runFor('A', async () => {
    await bStarted;
    await state.http.get('/api/v1/from-a');
  });
  const b = state.runFor('B', async () => {
    startA();
    await state.http.get('/api/v1/from-b');
  });
  await Promise.all([a, b]);
  expect(await checksOf('/api/v1/from-a', '/api/v1/from-b')).toEqual(['A', 'B']);
});

test('shared work names the check that began it, though another check awaits it too', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let shared: Promise<unknown> | null = null;
  const once = () =>
    (shared ??= (async () => {
      await gate;
      return state.http.get('/api/v1/shared');
    })());
  const first = state.runFor('first', () => once());
  const second = state.runFor('second', async () => {
    release();
    await once();
    await state.http.get('/api/v1/from-second');
  });
  await Promise.all([first, second]);
  expect(await checksOf('/api/v1/shared', '/api/v1/from-second')).toEqual(['first', 'second']);
});

test('outside any check the shared client names none', async () => {
  await state.http.get('/api/v1/outside');
  expect(await checksOf('/api/v1/outside')).toEqual([undefined]);
});
