import { describe, expect, test } from 'vitest';
import type { HttpResponse } from '../src/kit.js';
import { mayHaveComeBack } from '../suites/support/exhaustion.js';
import type { BurstResult } from '../suites/support/bursts.js';

// RATE-3: a key accepted again right after its 429, within the window the 429 named, is a fault
// only with more of its budget back than any way of counting could have given back by then.

/** An answer to a request sent at `sentAt` (ms) and answered `tookMs` later. */
function answer(status: number, sentAt: number, tookMs = 5): HttpResponse {
  return { status, exchange: { startedAt: new Date(sentAt).toISOString(), durationMs: tookMs } } as unknown as HttpResponse;
}

/** A burst of `ceiling` accepted requests sent evenly over `spanMs` from `start`, then its 429. */
function burst(ceiling: number, start: number, spanMs: number): Pick<Parameters<typeof mayHaveComeBack>[0], 'burst' | 'key'> {
  const accepted = Array.from({ length: ceiling }, (_, i) => answer(200, start + (i * spanMs) / ceiling));
  const refused = answer(429, start + spanMs);
  const result = {
    judgement: { kind: 'limited', index: ceiling },
    responses: [...accepted, refused],
    attempt: [...accepted, refused],
    first429: { res: refused, at: start + spanMs + 5 },
  };
  return { burst: result as unknown as BurstResult, key: { firstUse: { accepted: null } } as never };
}

const T = Date.UTC(2026, 10, 29, 12, 0, 0);

describe("how much of an exhausted key's budget may have come back", () => {
  test('at one-second windows, a burst that spanned most of a window has half of it back a window after it began (a sliding log)', () => {
    const exhaustion = burst(100, T, 900);
    // Answered 1.45 s after the burst began: the requests sent in its first 450 ms have left a sliding log.
    const back = mayHaveComeBack(exhaustion, answer(200, T + 1440, 10), 100, 1000);
    expect(back).toBeGreaterThanOrEqual(50);
  });

  test('at one-minute windows, right after the 429, none has come back, and a whole budget is the fault', () => {
    const exhaustion = burst(100, T, 2000);
    expect(mayHaveComeBack(exhaustion, answer(200, T + 2020, 10), 100, 60_000)).toBe(0);
  });

  test('a token bucket refills at the ceiling a window, from the 429 on', () => {
    const exhaustion = burst(100, T, 100);
    // 600 ms after the 429 at 100 a minute: one token.
    expect(mayHaveComeBack(exhaustion, answer(200, T + 100 + 590, 10), 100, 60_000)).toBe(1);
  });
});
