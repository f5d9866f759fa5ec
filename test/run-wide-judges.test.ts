import { describe, expect, test } from 'vitest';
import type { Exchange } from '../src/http/exchange.js';
import { RUN_WIDE_JUDGES } from '../src/judge/run-wide.js';
import { parseProfile } from '../src/profile/profile.js';

const profile = parseProfile({ name: 't', limits: { perKeyPerMinute: 100, unauthenticatedPerMinute: 20, windowSeconds: 60 } });
const now = Date.now();
const reset = String(Math.ceil(now / 1000) + 30);

function exchange(at: number, remaining: number, extra: Partial<Exchange> = {}): Exchange {
  return {
    startedAt: new Date(at).toISOString(),
    durationMs: 1,
    auth: 'main',
    bucket: 'key:a',
    request: { method: 'GET', url: 'http://t/api/v1/workspaces', headers: {} },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': reset },
      body: '{}',
      bytes: 2,
      truncated: false,
      json: 'ok',
    },
    ...extra,
  };
}

describe('RATE-8 over the run log', () => {
  test('a Remaining that does not fall between two sequential requests is flagged', () => {
    expect(RUN_WIDE_JUDGES['RATE-8']([exchange(now, 50), exchange(now + 10, 50)], profile)).toHaveLength(1);
  });

  test('requests that overlapped on the wire may be answered in either order', () => {
    const log = [exchange(now, 49, { overlapped: true }), exchange(now + 10, 50, { overlapped: true })];
    expect(RUN_WIDE_JUDGES['RATE-8'](log, profile)).toEqual([]);
  });

  test('a Remaining that falls by one is fine', () => {
    expect(RUN_WIDE_JUDGES['RATE-8']([exchange(now, 50), exchange(now + 10, 49)], profile)).toEqual([]);
  });
});
