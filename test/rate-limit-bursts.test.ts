import { describe, expect, test } from 'vitest';
import type { HttpResponse } from '../src/http/request.js';
import { burstCap, judgeBurst, provokeLimit, type BurstStep } from '../suites/support/bursts.js';

/** Steps `gapMs` apart from t0; `reset` may be a number for all or a function of the index. */
function steps(statuses: readonly number[], reset: number | null | ((i: number) => number | null), t0 = 1_000_000, gapMs = 10): BurstStep[] {
  return statuses.map((status, i) => ({
    status,
    reset: typeof reset === 'function' ? reset(i) : reset,
    sentAt: t0 + i * gapMs,
    doneAt: t0 + i * gapMs + 5,
  }));
}
const ok = (n: number) => Array<number>(n).fill(200);

describe('judging a burst that crosses a limit', () => {
  test('a 429 right after the ceiling within one fixed window is the limit working', () => {
    expect(judgeBurst(steps([...ok(20), 429], 1700), 20, 60_000)).toEqual({ kind: 'limited', index: 20 });
  });

  test('a request accepted past the ceiling within one window is lax, at once', () => {
    expect(judgeBurst(steps(ok(21), 1700), 20, 60_000)).toMatchObject({ kind: 'lax', index: 20, accepted: 21 });
  });

  test('a fixed-window boundary inside the burst restarts the count (Reset jumps by a window)', () => {
    const s = steps([...ok(7), ...ok(20), 429], (i) => (i < 7 ? 1700 : 1760));
    expect(judgeBurst(s, 20, 60_000)).toEqual({ kind: 'limited', index: 27 });
    expect(judgeBurst(s.slice(0, 27), 20, 60_000)).toEqual({ kind: 'continue' });
  });

  test('a sliding Reset that creeps by seconds is one window, not many', () => {
    const s = steps([...ok(20), 429], (i) => 1700 + Math.floor(i / 4));
    expect(judgeBurst(s, 20, 60_000)).toEqual({ kind: 'limited', index: 20 });
    expect(
      judgeBurst(
        steps(ok(21), (i) => 1700 + Math.floor(i / 4)),
        20,
        60_000,
      ).kind,
    ).toBe('lax');
  });

  test('past the ceiling under one Reset but slower than a window (a sliding log) is no proof: the burst goes on, then is slow', () => {
    // 12 ms apart: the ceiling's 101 requests span 1.2 s of a 1-s window, all named the same Reset.
    const slow = (n: number) => steps(ok(n), 1700, 1_000_000, 12);
    expect(judgeBurst(slow(101), 100, 1000)).toEqual({ kind: 'continue' });
    expect(judgeBurst(slow(burstCap(100)), 100, 1000)).toMatchObject({ kind: 'slow' });
    // The same requests within a window are lax.
    expect(judgeBurst(steps(ok(101), 1700), 100, 1100)).toMatchObject({ kind: 'lax', index: 100, accepted: 101 });
  });

  test("a 429 as many short of the ceiling as the key's refused first uses is the ceiling: a target may count a token's requests before it knows the key", () => {
    for (const reset of [1700, null]) {
      expect(judgeBurst(steps([...ok(19), 429], reset), 20, 60_000, false, 1)).toEqual({ kind: 'limited', index: 19 });
      expect(judgeBurst(steps([...ok(20), 429], reset), 20, 60_000, false, 1)).toEqual({ kind: 'limited', index: 20 });
      expect(judgeBurst(steps([...ok(18), 429], reset), 20, 60_000, false, 1)).toMatchObject({ kind: 'early', accepted: 18 });
    }
  });

  test('a 429 answered before accepted requests sent ahead of it (out of order, under load) is the ceiling, not early', () => {
    // 20 accepted sent first, the 21st refused; the refusal completes before the last 4 accepted.
    const s = steps([...ok(21)], 1700).map((step, i) => (i === 20 ? { ...step, status: 429, doneAt: step.sentAt + 1 } : { ...step, doneAt: step.doneAt + 50 }));
    const byCompletion = [...s].sort((a, b) => a.doneAt - b.doneAt);
    for (const reset of [1700, null]) {
      const judged = judgeBurst(
        byCompletion.map((step) => ({ ...step, reset })),
        20,
        60_000,
      );
      expect(judged.kind).toBe('limited');
    }
  });

  test('an early 429 on a fresh budget proves nothing (another client spends it)', () => {
    expect(judgeBurst(steps([...ok(12), 429], 1700), 20, 60_000)).toMatchObject({ kind: 'early', accepted: 12 });
  });

  test('without headers, a late 429 is ambiguous and names the boundary; aligned, it is lax', () => {
    const s = steps([...ok(27), 429], null);
    const judged = judgeBurst(s, 20, 60_000);
    // The last 20 accepted requests (7..26) share the 429's window: the boundary is before request 7 completed.
    expect(judged).toEqual({ kind: 'ambiguous', index: 27, boundaryBy: s[7]!.doneAt });
    expect(judgeBurst(s, 20, 60_000, true)).toMatchObject({ kind: 'lax', index: 27 });
  });

  test('without headers, no 429 in a full burst shorter than a window is lax, longer is slow', () => {
    expect(judgeBurst(steps(ok(burstCap(20)), null), 20, 60_000).kind).toBe('lax');
    expect(judgeBurst(steps(ok(burstCap(20)), null), 20, 100).kind).toBe('slow');
  });

  test('with headers, a full burst in which no window exceeded the ceiling is slow, not lax', () => {
    const s = steps(ok(burstCap(20)), (i) => 1700 + Math.floor(i / 15) * 60);
    expect(judgeBurst(s, 20, 60_000)).toMatchObject({ kind: 'slow' });
  });

  test('responses completing out of order near a boundary still count per window', () => {
    // Six requests of the old window (one completing late), twenty of the new one, then the 429.
    const s = steps([...ok(26), 429], (i) => (i < 5 || i === 6 ? 1700 : 1760));
    expect(judgeBurst(s, 20, 60_000)).toEqual({ kind: 'limited', index: 26 });
  });
});

describe('provoking a limit on a sliding log, slower than its window', () => {
  // The blind Node implementation's limiter (variants/blind-node/server.mjs): a log of each
  // request's time; refused while a window holds the ceiling; Reset when the oldest leaves. Seen
  // under load: a first burst slower than its one-second window, the slow judgement, and a second
  // burst begun at the Reset named, while the log still held the first's last requests: a 429
  // before the ceiling, read as a budget shared with other keys (RATE-6 fail).
  test('a burst begun again at the Reset it named is not judged early for the requests the log still holds', async () => {
    const WINDOW_MS = 1000;
    const CEILING = 20;
    let now = 1_000_000;
    const log: number[] = [];
    // The first burst's requests take 80 ms each (a loaded machine): twenty take longer than the
    // window. Once the run has waited, they take 10 ms.
    let perRequestMs = 80;
    const send = async (): Promise<HttpResponse> => {
      now += perRequestMs;
      while (log.length > 0 && log[0]! <= now - WINDOW_MS) log.shift();
      const refused = log.length >= CEILING;
      if (!refused) log.push(now);
      const reset = Math.ceil(((log[0] ?? now) + WINDOW_MS) / 1000);
      const headers = { 'x-ratelimit-limit': String(CEILING), 'x-ratelimit-remaining': String(CEILING - log.length), 'x-ratelimit-reset': String(reset) };
      const startedAt = new Date(now - 5).toISOString();
      return {
        status: refused ? 429 : 200,
        headers,
        text: '',
        raw: Buffer.alloc(0),
        json: undefined,
        exchange: { startedAt, durationMs: 5 } as HttpResponse['exchange'],
      };
    };
    const result = await provokeLimit({
      send,
      ceiling: CEILING,
      windowMs: WINDOW_MS,
      concurrency: 1,
      untilFresh: async () => void (now += WINDOW_MS + 1000),
      now: () => now,
      sleep: async (ms) => {
        now += Math.max(0, ms);
        perRequestMs = 10;
      },
    });
    expect(result.judgement.kind).not.toBe('early');
  });
});
