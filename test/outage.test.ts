import { describe, expect, test } from 'vitest';
import { OutageWatch } from '../src/broker/outage.js';
import { responderOf, type Exchange } from '../src/http/exchange.js';

const T0 = Date.parse('2026-11-26T12:03:04Z');

function exchange(at: number, outcome: number | 'refused' | 'timeout' | 'reset'): Exchange {
  const e: Exchange = {
    startedAt: new Date(T0 + at).toISOString(),
    durationMs: 1,
    auth: 'main',
    bucket: 'b',
    request: { method: 'GET', url: 'http://t/', headers: {} },
  };
  if (typeof outcome === 'number') {
    e.response = { status: outcome, headers: {}, body: '', bytes: 0, truncated: false, json: 'empty' };
    e.answeredBy = responderOf(outcome);
  } else e.failure = { kind: outcome, message: outcome };
  return e;
}

describe('the watch for a target that stopped answering', () => {
  test('6 requests refused in a row over 2 s, after the target had answered: gone, said in one line', () => {
    const watch = new OutageWatch();
    watch.observe(exchange(0, 200));
    for (let i = 0; i < 5; i++) expect(watch.observe(exchange(500 * i, 'refused'))).toBeNull();
    expect(watch.observe(exchange(2500, 'refused'))?.line).toBe('the target stopped answering at 12:03:04 UTC: 6 requests refused in a row');
  });

  test('never before the target answered (the preflight says that), nor within a blip of under 2 s', () => {
    const before = new OutageWatch();
    for (let i = 0; i < 10; i++) expect(before.observe(exchange(500 * i, 'refused'))).toBeNull();
    const blip = new OutageWatch();
    blip.observe(exchange(0, 200));
    for (let i = 0; i < 10; i++) expect(blip.observe(exchange(100 * i, 'refused'))).toBeNull();
  });

  test("a front end's answers count as silence; an answer of the API ends the streak; timeouts are the API's, judged", () => {
    const watch = new OutageWatch();
    watch.observe(exchange(0, 200));
    for (let i = 0; i < 5; i++) watch.observe(exchange(500 * i, 503));
    watch.observe(exchange(2400, 500));
    for (let i = 0; i < 10; i++) expect(watch.observe(exchange(3000 + 500 * i, 'timeout'))).toBeNull();
    for (let i = 0; i < 5; i++) watch.observe(exchange(9000 + 500 * i, i % 2 ? 502 : 'reset'));
    expect(watch.observe(exchange(12_000, 504))?.line).toBe(
      'the target stopped answering at 12:03:13 UTC: 6 requests in a row got no answer of the API (3 reset, 3 answered by a front end)',
    );
  });

  test('one refused request, confirmed by new connections that all fail: gone without waiting for more requests', async () => {
    const watch = new OutageWatch();
    let probes = 0;
    watch.watchConnections(async () => (probes++, false));
    watch.observe(exchange(0, 200));
    watch.observe(exchange(100, 'refused'));
    const outage = await watch.detected;
    expect(probes).toBe(4);
    expect(outage.line).toBe('the target stopped answering at 12:03:04 UTC: 1 request refused, then 4 new connections failed in a row');
  });
  test('a target that dies while the run sends nothing (a check waiting out a Retry-After) is found gone by the idle probes', async () => {
    const watch = new OutageWatch();
    let probes = 0;
    const stop = watch.watchConnections(async () => (probes++, false));
    watch.observe(exchange(0, 200));
    const outage = await watch.detected;
    stop();
    expect(probes).toBe(4);
    expect(outage.line).toMatch(/^the target stopped answering at .*: 4 new connections failed in a row$/);
  }, 15_000);
  test('at the end of the checks, a run whose last requests went unanswered is confirmed gone before its report; one whose last answered is not', async () => {
    const dead = new OutageWatch();
    dead.watchConnections(async () => false);
    dead.observe(exchange(0, 200));
    dead.observe(exchange(100, 'refused'));
    expect((await dead.settle())?.line).toMatch(/1 request refused, then 4 new connections failed in a row$/);
    const alive = new OutageWatch();
    alive.watchConnections(async () => false);
    alive.observe(exchange(0, 'refused'));
    alive.observe(exchange(100, 200));
    expect(await alive.settle()).toBeNull();
  }, 15_000);
});
