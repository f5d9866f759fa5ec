import { describe, expect, test } from 'vitest';
import { rateHeaders } from '../src/http/rate-headers.js';
import { Pacer } from '../src/pacing/pacer.js';
import { FAILED_CREDENTIAL_PACING } from '../src/http/layers/pacing.js';

function clock() {
  let now = 1_000_000_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const headers = (remaining: number, resetSeconds: number) =>
  rateHeaders({ 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(resetSeconds) });

/** A pacer of three requests a window that has sent all three, in the window the target says ends in `endsInS`. */
async function spentOfThree(endsInS: number) {
  const c = clock();
  const pacer = new Pacer({ perKey: 3, anonymous: 20, windowMs: 60_000, marginMs: 0, now: c.now, sleep: async (ms) => void c.advance(ms) });
  const reset = c.now() / 1000 + endsInS;
  for (const remaining of [2, 1, 0]) {
    await pacer.acquire('k', false);
    pacer.observe('k', false, 200, headers(remaining, reset), true);
  }
  return { c, pacer, reset };
}

describe('pacer', () => {
  test('lets requests through while the headers say budget remains', () => {
    const c = clock();
    const pacer = new Pacer({ perKey: 100, anonymous: 20, windowMs: 60_000, marginMs: 0, now: c.now });
    pacer.observe('k', false, 200, headers(5, c.now() / 1000 + 30), false);
    expect(pacer.delay('k', false)).toBe(0);
  });

  test('waits exactly until the reset the headers name when the budget is spent', () => {
    const c = clock();
    const pacer = new Pacer({ perKey: 100, anonymous: 20, windowMs: 60_000, marginMs: 250, now: c.now });
    pacer.observe('k', false, 200, headers(0, c.now() / 1000 + 42), false);
    expect(pacer.delay('k', false)).toBe(42_250);
    c.advance(42_250);
    expect(pacer.delay('k', false)).toBe(0);
  });

  test('ignores a Reset that is no Unix time in seconds and counts its own requests instead', () => {
    const c = clock();
    const pacer = new Pacer({ perKey: 2, anonymous: 20, windowMs: 60_000, marginMs: 0, now: c.now });
    pacer.observe('k', false, 200, headers(0, c.now()), false); // milliseconds
    expect(pacer.delay('k', false)).toBe(0);
  });

  test('without headers, allows the ceiling per sliding window', async () => {
    const c = clock();
    const pacer = new Pacer({ perKey: 100, anonymous: 2, windowMs: 60_000, marginMs: 0, now: c.now, sleep: async (ms) => void c.advance(ms) });
    await pacer.acquire('anonymous', true);
    await pacer.acquire('anonymous', true);
    expect(pacer.delay('anonymous', true)).toBe(60_001);
    c.advance(30_000);
    expect(pacer.delay('anonymous', true)).toBe(30_001);
  });

  test('a failed credential has no budget of its own until the target shows it counts it against its per-IP budget; then it waits there', async () => {
    const c = clock();
    const slept: number[] = [];
    const pacer = new Pacer({
      perKey: 100,
      anonymous: 20,
      windowMs: 60_000,
      marginMs: 0,
      now: c.now,
      sleep: async (ms) => void (slept.push(ms), c.advance(ms)),
    });
    // The reference's answer to an unknown key: no rate headers. Nothing learnt, nothing waited.
    await pacer.acquire(FAILED_CREDENTIAL_PACING, false);
    pacer.observeFailed(401, rateHeaders({}));
    await pacer.acquire(FAILED_CREDENTIAL_PACING, false);
    expect(slept).toEqual([]);
    // A target whose 401 to an unknown key carries the per-IP ceiling, its budget spent: the next failed credential waits for its reset.
    const reset = c.now() / 1000 + 30;
    pacer.observeFailed(401, rateHeaders({ 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) }));
    expect(pacer.delay('anonymous', true)).toBe(30_000);
    await pacer.acquire(FAILED_CREDENTIAL_PACING, false);
    expect(slept.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(30_000);
    // A 401 with the per-key ceiling is a key's budget, not the per-IP one: nothing is learnt from it.
    const other = new Pacer({ perKey: 100, anonymous: 20, windowMs: 60_000, marginMs: 0, now: c.now });
    other.observeFailed(401, rateHeaders({ 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) }));
    expect(other.delay('anonymous', true)).toBe(0);
  });

  test('a 429 blocks the bucket for Retry-After', () => {
    const c = clock();
    const pacer = new Pacer({ perKey: 100, anonymous: 20, windowMs: 60_000, marginMs: 0, now: c.now });
    pacer.observe('k', false, 429, rateHeaders({ 'retry-after': '7' }), false);
    expect(pacer.delay('k', false)).toBe(7000);
  });

  test('once the window the target named has ended, one request goes at once and its answer, not the own count of the old window, paces the rest', async () => {
    const { c, pacer, reset } = await spentOfThree(10);
    expect(pacer.delay('k', false)).toBe(10_000);
    c.advance(10_000);
    // Three requests of the run in the last minute: counted alone, they would hold the next one 50 s.
    expect(pacer.delay('k', false)).toBe(0);
    await pacer.acquire('k', false);
    expect(pacer.delay('k', false)).toBe(20); // the first answer of the new window is on its way
    pacer.observe('k', false, 200, headers(2, reset + 60), true);
    expect(pacer.delay('k', false)).toBe(0);
    expect(pacer.standing('k').room).toBe(2);
  });

  test("once the window the target named has ended, one request goes first even where the run's own count of it has aged out", async () => {
    const { c, pacer, reset } = await spentOfThree(60);
    c.advance(60_000);
    // The run's three requests are a window old: counted alone, three more would go at once into a
    // window the target may still count (its Reset rounded down). One goes; the rest wait for its answer.
    expect(pacer.delay('k', false)).toBe(0);
    await pacer.acquire('k', false);
    expect(pacer.delay('k', false)).toBe(20);
    pacer.observe('k', false, 200, headers(2, reset + 60), true);
    expect(pacer.delay('k', false)).toBe(0);
  });

  // A Reset names a whole second. A server that rounds its window's end down (a conformant
  // reading of RATE-2), or whose clock stepped back after the run measured its offset, still
  // counts in the window the pacer read as ended: the first answer after that end says so.
  describe('an answer to a request sent after the end read from its Reset, naming that window still', () => {
    /** The window ends at `endS` (Unix seconds); the pacer has spent it and opened the next on its Reset. */
    async function spentThenRenewed() {
      const c = clock();
      const pacer = new Pacer({ perKey: 2, anonymous: 20, windowMs: 60_000, marginMs: 0, now: c.now, sleep: async (ms) => void c.advance(ms) });
      const endS = c.now() / 1000 + 10;
      for (const remaining of [1, 0]) {
        await pacer.acquire('k', false);
        pacer.observe('k', false, 200, headers(remaining, endS), true, { sentAt: c.now(), date: c.now() });
      }
      c.advance(10_000);
      await pacer.acquire('k', false);
      return { c, pacer, endS };
    }

    test('with budget spent, waits for the second after it, not for a 429 on the next request', async () => {
      const { c, pacer, endS } = await spentThenRenewed();
      // Rounded down: the server's time is 0.4 s past the second it named, its Date that second. The
      // Date tells the server's time no closer than its second, so the wait is a whole one from the answer.
      c.advance(400);
      pacer.observe('k', false, 200, headers(0, endS), true, { sentAt: c.now() - 400, date: endS * 1000 });
      expect(pacer.delay('k', false)).toBe(1000);
      c.advance(1000);
      expect(pacer.delay('k', false)).toBe(0);
    });

    test("as late as the answer's own Date says, where the server's clock stepped back", async () => {
      const { c, pacer, endS } = await spentThenRenewed();
      // The server's clock 1.2 s behind what the run measured: its Date reads 2 s before the second named.
      pacer.observe('k', false, 200, headers(0, endS), true, { sentAt: c.now(), date: endS * 1000 - 2000 });
      expect(pacer.delay('k', false)).toBe(3000);
    });

    test('with budget left, spends it, then waits the same', async () => {
      const { c, pacer, endS } = await spentThenRenewed();
      pacer.observe('k', false, 200, headers(1, endS), true, { sentAt: c.now(), date: endS * 1000 });
      expect(pacer.delay('k', false)).toBe(0);
      await pacer.acquire('k', false);
      expect(pacer.delay('k', false)).toBe(1000);
    });

    test('an answer to a request sent before that end is old news, however late it comes', async () => {
      const { c, pacer, endS } = await spentThenRenewed();
      pacer.observe('k', false, 200, headers(0, endS), true, { sentAt: c.now() - 1, date: endS * 1000 - 1000 });
      // The window it names has ended: the next request opens the new one.
      expect(pacer.delay('k', false)).toBe(0);
    });
  });

  test('an answer without headers after a renewed window hands pacing back to the own count', async () => {
    const c = clock();
    const pacer = new Pacer({ perKey: 2, anonymous: 20, windowMs: 60_000, marginMs: 0, now: c.now, sleep: async (ms) => void c.advance(ms) });
    const reset = c.now() / 1000 + 10;
    for (const remaining of [1, 0]) {
      await pacer.acquire('k', false);
      pacer.observe('k', false, 200, headers(remaining, reset), true);
    }
    c.advance(10_000);
    await pacer.acquire('k', false);
    pacer.observe('k', false, 200, rateHeaders({}), true);
    expect(pacer.delay('k', false)).toBe(50_001);
  });

  test('counts requests in flight against the remaining budget', async () => {
    const c = clock();
    const pacer = new Pacer({ perKey: 100, anonymous: 20, windowMs: 60_000, marginMs: 0, now: c.now, sleep: async (ms) => void c.advance(ms) });
    pacer.observe('k', false, 200, headers(1, c.now() / 1000 + 10), false);
    await pacer.acquire('k', false);
    expect(pacer.delay('k', false)).toBe(10_000);
  });

  test('answers read out of order never give a window back the budget a later answer spent', async () => {
    // Eight requests in flight at once (GEN-3) are answered in any order: the one the target
    // counted first may be read last. Its Remaining is older news, not budget come back.
    const c = clock();
    const pacer = new Pacer({ perKey: 100, anonymous: 20, windowMs: 60_000, marginMs: 0, now: c.now, sleep: async (ms) => void c.advance(ms) });
    const reset = c.now() / 1000 + 10;
    pacer.observe('k', false, 200, headers(4, reset), false);
    for (let i = 0; i < 4; i++) await pacer.acquire('k', false);
    // Counted by the target as 3, 2, 1, 0 left; read as 0, 1, 2, 3.
    for (const remaining of [0, 1, 2, 3]) pacer.observe('k', false, 200, headers(remaining, reset), true);
    expect(pacer.delay('k', false)).toBe(10_000);
    // An answer of the window before, read after one of the next, is older news too.
    c.advance(10_000);
    pacer.observe('k', false, 200, headers(99, reset + 60), false);
    pacer.observe('k', false, 200, headers(5, reset), false);
    expect(pacer.standing('k').room).toBe(99);
  });
});

describe('pacer reservations and fresh windows', () => {
  test('a reservation holds budget back from paced requests until an unpaced response uses it', async () => {
    const c = clock();
    const pacer = new Pacer({ perKey: 100, anonymous: 20, windowMs: 60_000, marginMs: 0, now: c.now, sleep: async (ms) => void c.advance(ms) });
    pacer.observe('k', false, 200, headers(2, c.now() / 1000 + 10), true);
    await pacer.reserve('k', false, 1);
    await pacer.acquire('k', false);
    expect(pacer.delay('k', false)).toBe(10_000);
    pacer.observe('k', false, 200, headers(1, c.now() / 1000 + 10), false); // the reserved one
    expect(pacer.delay('k', false)).toBe(10_000); // still one in flight, Remaining 1
  });

  test('a reservation waits for the window when the budget is spent', async () => {
    const c = clock();
    const pacer = new Pacer({ perKey: 100, anonymous: 20, windowMs: 60_000, marginMs: 0, now: c.now, sleep: async (ms) => void c.advance(ms) });
    pacer.observe('k', false, 200, headers(0, c.now() / 1000 + 30), true);
    const start = c.now();
    await pacer.reserve('k', false, 1);
    expect(c.now() - start).toBe(30_000);
  });

  test('a reservation never sent, made as a window renewed, holds the next request back until it is given back', async () => {
    const c = clock();
    const pacer = new Pacer({ perKey: 100, anonymous: 20, windowMs: 60_000, marginMs: 0, now: c.now, sleep: async (ms) => void c.advance(ms) });
    pacer.observe('k', false, 200, headers(50, c.now() / 1000 + 10), true);
    c.advance(10_000);
    // The window has ended and no answer of the new one is read: RATE-6's set-aside probe of the
    // main key, never sent when the burst beside it met no 429 (stress run 2 at dd913f0).
    await pacer.reserve('k', false, 1);
    expect(pacer.delay('k', false)).toBeGreaterThan(0);
    pacer.release('k', false, 1);
    expect(pacer.delay('k', false)).toBe(0);
  });

  test('with a Reset known, the bucket is fresh once it has passed', () => {
    const c = clock();
    const pacer = new Pacer({ perKey: 100, anonymous: 20, windowMs: 60_000, marginMs: 30, now: c.now });
    expect(pacer.freshIn('anonymous', true)).toBe(0);
    pacer.observe('anonymous', true, 401, rateHeaders({ 'x-ratelimit-remaining': '15', 'x-ratelimit-reset': String(c.now() / 1000 + 12) }), true);
    expect(pacer.freshIn('anonymous', true)).toBe(12_030);
  });

  test('without headers, the bucket is fresh a whole window after its last response', () => {
    const c = clock();
    const pacer = new Pacer({ perKey: 100, anonymous: 20, windowMs: 60_000, marginMs: 30, now: c.now });
    pacer.observe('anonymous', true, 401, rateHeaders({}), false);
    c.advance(20_000);
    expect(pacer.freshIn('anonymous', true)).toBe(40_030);
  });

  test('keeps the teardown reserve back on the deleting key: never spends the last requests of its window', () => {
    const c = clock();
    let alive = 3;
    const pacer = new Pacer({ perKey: 100, anonymous: 20, windowMs: 60_000, marginMs: 0, now: c.now, holdBack: (b) => (b === 'main' ? alive + 1 : 0) });
    pacer.observe('main', false, 200, headers(4, c.now() / 1000 + 30), false);
    pacer.observe('other', false, 200, headers(4, c.now() / 1000 + 30), false);
    // Four left, four held back (three keys alive and one more): the run waits for the window.
    expect(pacer.delay('main', false)).toBe(30_000);
    expect(pacer.delay('other', false)).toBe(0);
    alive = 2;
    expect(pacer.delay('main', false)).toBe(0);
  });

  test('a stopped pacer ends every wait at once and refuses later ones', async () => {
    const c = clock();
    const pacer = new Pacer({ perKey: 100, anonymous: 20, windowMs: 60_000, marginMs: 0, now: c.now, sleep: async (ms) => void c.advance(Math.min(ms, 10)) });
    pacer.observe('k', false, 200, headers(0, c.now() / 1000 + 50), false);
    const waiting = pacer.acquire('k', false);
    expect(pacer.waits().map((w) => w.bucket)).toEqual(['k']);
    pacer.stop('interrupted by SIGTERM');
    await expect(waiting).rejects.toThrow('interrupted by SIGTERM');
    expect(pacer.waits()).toEqual([]);
    await expect(pacer.acquire('other', false)).rejects.toThrow('interrupted by SIGTERM');
  });
});
