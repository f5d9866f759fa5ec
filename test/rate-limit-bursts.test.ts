import { describe, expect, test } from 'vitest';
import { burstCap, judgeBurst, type BurstStep } from '../suites/support/bursts.js';

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
