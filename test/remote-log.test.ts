import { afterAll, beforeAll, expect, test } from 'vitest';
import { Broker } from '../src/broker/broker.js';
import { serveBroker, type RunningBroker } from '../src/broker/channel.js';
import { RemoteBroker } from '../src/broker/remote.js';
import type { Exchange } from '../src/http/exchange.js';

// A worker reads the run's log through its handle on the broker, several times at the end of a
// run: each read fetches only what the log gained since the one before, and is the whole log.

let broker: Broker;
let served: RunningBroker;

beforeAll(async () => {
  broker = new Broker({ keyPrefix: 'sk_', ledgerFile: null, pacer: { perKey: 1e9, anonymous: 1e9, windowMs: 60_000, marginMs: 0 } });
  served = await serveBroker(broker);
});

afterAll(async () => {
  await served.close();
});

function exchange(path: string): Exchange {
  return {
    startedAt: new Date().toISOString(),
    durationMs: 1,
    auth: 'none',
    bucket: 'anonymous',
    request: { method: 'GET', url: `http://127.0.0.1:9/api/v1${path}`, headers: {} },
  };
}

const paths = (log: readonly Exchange[]) => log.map((e) => new URL(e.request.url).pathname);

test("each read of the log is the whole log, though it fetches only what was added since the handle's last", async () => {
  const remote = new RemoteBroker(served.address);
  broker.record(exchange('/a'), new Uint8Array());
  const first = await remote.log();
  broker.record(exchange('/b'), new Uint8Array());
  broker.record(exchange('/c'), new Uint8Array());
  const [second, third] = await Promise.all([remote.log(), remote.log()]);
  expect(paths(first)).toEqual(['/api/v1/a']);
  // Read at once, both are whole, each exchange once.
  expect(paths(second)).toEqual(['/api/v1/a', '/api/v1/b', '/api/v1/c']);
  expect(third).toEqual(second);
  // Fetched once: a read that fetched it again would hold another copy (the channel clones).
  expect(second[0]).toBe(first[0]);
  // A read is a snapshot: a later one does not grow an earlier one.
  expect(first).toHaveLength(1);
  // The broker's own entries, as the run records them (the leak scan's marks, the place in the log).
  expect((await remote.log()).map((e) => e.seq)).toEqual([0, 1, 2]);
});
