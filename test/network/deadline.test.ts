import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { closeDispatcher, HttpClient, TransportFailure, type ClientHooks } from '../../src/http/client.js';
import { startSlowHandshake } from '../hostile/server.js';

// The request deadline covers the connection too: a TLS handshake that never completes fails at
// the deadline, not at undici's own 10 s connect timeout.

const attempts: number[] = [];
const hooks: ClientHooks = { acquire: async () => {}, record: async (exchange) => void attempts.push(exchange.durationMs) };
let stalled: Awaited<ReturnType<typeof startSlowHandshake>>;
let answering: Server;

beforeAll(async () => {
  stalled = await startSlowHandshake('https://127.0.0.1:9', null);
  answering = createServer((_req, res) => res.end('{}'));
  await new Promise<void>((resolve) => answering.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await closeDispatcher();
  await stalled.close();
  await new Promise((resolve) => answering.close(resolve));
});

// No request was sent over a connection that never opened, so the client sends it again (the
// surroundings, not the API: src/http/layers/retry-unanswered.ts): each attempt ends at its deadline.
// A request of the run's 10-s deadline goes first, as in a run whose bounded teardown comes after
// (a signal): the connections it was sent on must not lend their connect timeout to the shorter one.
test('a TLS handshake that never completes fails as a connect timeout, each attempt within the 1000 ms deadline (plus slack), not after 10 s, also after a request of a longer deadline', async () => {
  const before = new HttpClient({
    baseUrl: `http://127.0.0.1:${(answering.address() as AddressInfo).port}`,
    keys: { main: 'sk_x', other: null },
    extraHeaders: [],
    timeoutMs: 10_000,
    hooks: { acquire: async () => {}, record: async () => {} },
  });
  expect((await before.get('/api/v1/workspaces')).status).toBe(200);
  const client = new HttpClient({ baseUrl: stalled.url, keys: { main: 'sk_x', other: null }, extraHeaders: [], timeoutMs: 1000, hooks });
  const started = Date.now();
  const failure = await client.get('/api/v1/workspaces').catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(TransportFailure);
  expect((failure as TransportFailure).kind).toBe('connect_timeout');
  expect(attempts.length).toBeGreaterThan(1);
  for (const ms of attempts) expect(ms).toBeLessThan(2500);
  // Four attempts at their deadline and the back-off between them, far below 10 s each.
  expect(Date.now() - started).toBeLessThan(4 * 2500 + 4000);
});
