import { describe, expect, test } from 'vitest';
import { ReadOnlyRefusal, TransportFailure } from '../src/http/failures.js';
import { compose, type Send } from '../src/http/layer.js';
import { limits } from '../src/http/layers/limits.js';
import { overlapTracking } from '../src/http/layers/overlap.js';
import { pacing } from '../src/http/layers/pacing.js';
import { readOnlyGuard } from '../src/http/layers/read-only.js';
import { recording } from '../src/http/layers/recording.js';
import { retryUnplanned429 } from '../src/http/layers/retry-429.js';
import type { Outgoing } from '../src/http/request.js';
import { fakeTransport as fakeTurns, outgoing } from './support/fake-transport.js';

/** Every answer says Retry-After: 0, so that a retried 429 costs no time. */
const fakeTransport = (statuses: number[], sent: Outgoing[] = []): Send => fakeTurns(statuses, sent, { 'retry-after': '0' });

describe('the client layers', () => {
  test('compose puts the first layer outermost', async () => {
    const order: string[] = [];
    const named = (name: string) => (next: Send) => async (r: Outgoing) => (order.push(name), next(r));
    await compose([named('outer'), named('inner')], fakeTransport([200]))(outgoing());
    expect(order).toEqual(['outer', 'inner']);
  });

  test('the read-only guard refuses a write and a planned 429 before anything is sent', async () => {
    const sent: Outgoing[] = [];
    const send = compose([readOnlyGuard], fakeTransport([], sent));
    await expect(send(outgoing({ method: 'POST' }))).rejects.toBeInstanceOf(ReadOnlyRefusal);
    await expect(send(outgoing({ expect429: true }))).rejects.toBeInstanceOf(ReadOnlyRefusal);
    await send(outgoing({ method: 'OPTIONS' }));
    expect(sent.map((r) => r.method)).toEqual(['OPTIONS']);
  });

  test('an unplanned 429 is retried, naming the refused exchange; a planned one is answered as it is', async () => {
    const sent: Outgoing[] = [];
    const send = compose([retryUnplanned429({ sleep: async () => {} })], fakeTransport([429, 429, 200, 429], sent));
    expect((await send(outgoing())).status).toBe(200);
    expect(sent.map((r) => r.retryOf)).toEqual([undefined, 0, 1]);
    expect((await send(outgoing({ expect429: true }))).status).toBe(429);
  });

  test("pacing waits on the request's bucket unless told not to", async () => {
    const acquired: [string, boolean][] = [];
    const send = compose([pacing(async (b, a) => void acquired.push([b, a]))], fakeTransport([]));
    await send(outgoing());
    await send(outgoing({ auth: 'none' }));
    await send(outgoing({ pace: false }));
    expect(acquired.map(([, anonymous]) => anonymous)).toEqual([false, true]);
    expect(acquired[1]![0]).toBe('anonymous');
  });

  test('recording sees a failed exchange too, with an empty body', async () => {
    const recorded: string[] = [];
    const failing: Send = async (r) => {
      throw new TransportFailure('reset', 'reset', {
        startedAt: '',
        durationMs: 0,
        auth: r.auth,
        bucket: r.bucket,
        request: { method: r.method, url: r.url, headers: {} },
      });
    };
    const send = compose([recording(async (e, body) => void recorded.push(`${e.request.method} ${body.length} bytes`))], failing);
    await expect(send(outgoing())).rejects.toBeInstanceOf(TransportFailure);
    expect(recorded).toEqual(['GET 0 bytes']);
  });

  /** Sends both requests through overlap tracking so that both are on the wire at once; then `send` for more. */
  async function atOnce(first: Outgoing, second: Outgoing) {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow: Send = async (r) => {
      await gate;
      return fakeTransport([200])(r);
    };
    const send = compose([overlapTracking], slow);
    const both = [send(first), send(second)];
    release();
    const [a, b] = await Promise.all(both);
    return { overlapped: [a!.exchange.overlapped, b!.exchange.overlapped], send };
  }

  test('two requests on the wire at once are both marked as overlapping; one alone is not', async () => {
    const { overlapped, send } = await atOnce(outgoing(), outgoing());
    expect(overlapped).toEqual([true, true]);
    expect((await send(outgoing())).exchange.overlapped).toBeUndefined();
  });

  test('requests on the wire at once with different credentials do not overlap: each key counts its own', async () => {
    const { overlapped } = await atOnce({ ...outgoing(), bucket: 'key-a' }, { ...outgoing(), bucket: 'key-b' });
    expect(overlapped).toEqual([undefined, undefined]);
  });

  test('limits give every request a deadline and a body cap that grows with the page size', async () => {
    const sent: Outgoing[] = [];
    const send = compose([limits(1234)], fakeTransport([], sent));
    await send(outgoing());
    await send(outgoing({ query: { limit: 10000 } }));
    expect(sent[0]!.timeoutMs).toBe(1234);
    expect(sent[1]!.maxBytes!).toBeGreaterThan(sent[0]!.maxBytes!);
  });
});
