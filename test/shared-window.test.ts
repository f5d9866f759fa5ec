import { describe, expect, test } from 'vitest';
import type { AuthKind, Exchange } from '../src/http/exchange.js';
import { sharedWindow } from '../suites/support/shared-window.js';

// Where RATE-7's burst starts: which of the run's earlier requests without a key the target counts
// in the per-IP window still open, which it may count or not, and which lie outside it.

const WINDOW_MS = 60_000;
// A whole second, so that the Resets below are whole seconds as a target sends them.
const NOW = Date.parse('2026-11-29T06:00:00.000Z');

/** A request `ago` ms before NOW, answered `status` with the X-RateLimit-Reset `reset` (epoch seconds; null: none). */
function exchange(ago: number, reset: number | null, status = 200, auth: AuthKind = 'none'): Exchange {
  const at = NOW - ago;
  return {
    startedAt: new Date(at).toISOString(),
    durationMs: 5,
    auth,
    bucket: 'ip',
    request: { method: 'GET', url: 'http://t/api/v1/workspaces', headers: {} },
    response: {
      status,
      headers: {
        'content-type': 'application/json',
        date: new Date(at).toUTCString(),
        ...(reset === null ? {} : { 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '10', 'x-ratelimit-reset': String(reset) }),
      },
      body: '{}',
      bytes: 2,
      truncated: false,
      json: 'ok',
    },
  };
}

const seconds = (ms: number) => Math.round(ms / 1000);

describe("RATE-7's shared window", () => {
  test('requests that name the same open window are the burst’s start', () => {
    const reset = seconds(NOW + 20_000);
    const shared = sharedWindow([exchange(30_000, reset), exchange(10_000, reset)], WINDOW_MS, NOW);
    expect(shared?.prior).toHaveLength(2);
    expect(shared?.uncertain).toBe(0);
  });

  test('a sliding log names the window a second later as old requests leave it: those requests may count or not, never outside it', () => {
    // The oldest request of the window plus a window, rounded up: it moves with each request that leaves.
    const log = [exchange(40_000, seconds(NOW + 18_000)), exchange(25_000, seconds(NOW + 19_000)), exchange(5_000, seconds(NOW + 20_000))];
    const shared = sharedWindow(log, WINDOW_MS, NOW);
    expect(shared?.prior).toHaveLength(1);
    expect(shared?.uncertain).toBe(2);
  });

  test('fixed windows: a request of the window before, a whole window apart, neither counts nor may count', () => {
    const log = [exchange(50_000, seconds(NOW - 40_000)), exchange(5_000, seconds(NOW + 20_000))];
    const shared = sharedWindow(log, WINDOW_MS, NOW);
    expect(shared?.prior).toHaveLength(1);
    expect(shared?.uncertain).toBe(0);
  });

  test('a window that is over leaves a whole budget', () => {
    const shared = sharedWindow([exchange(70_000, seconds(NOW - 5_000))], WINDOW_MS, NOW);
    expect(shared).toEqual({ prior: [], uncertain: 0, failed: 0 });
  });

  test('failed credentials sent since the window opened are counted apart, a valid key’s requests never', () => {
    const reset = seconds(NOW + 20_000);
    const log = [exchange(30_000, reset, 401, 'invalid'), exchange(20_000, reset, 200, 'main'), exchange(10_000, reset)];
    expect(sharedWindow(log, WINDOW_MS, NOW)?.failed).toBe(1);
  });

  test('nothing tells which requests count where one was refused already, or where the answers name no window', () => {
    const reset = seconds(NOW + 20_000);
    expect(sharedWindow([exchange(30_000, reset, 429), exchange(10_000, reset)], WINDOW_MS, NOW)).toBeNull();
    expect(sharedWindow([exchange(10_000, null)], WINDOW_MS, NOW)).toBeNull();
  });
});
