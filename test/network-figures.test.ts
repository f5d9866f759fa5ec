import { describe, expect, test } from 'vitest';
import { responderOf, type Exchange } from '../src/http/exchange.js';
import { networkLines, networkOf } from '../src/report/network.js';

let seq = 0;
function attempt(outcome: number | 'reset' | 'refused', retry?: { of: number; cause: Exchange['retryCause'] }): Exchange {
  const base: Exchange = {
    seq: seq++,
    startedAt: '',
    durationMs: 0,
    auth: 'main',
    bucket: 'b',
    request: { method: 'GET', url: 'http://t/api/v1/x', headers: {} },
  };
  if (retry) Object.assign(base, { retryOf: retry.of, retryCause: retry.cause });
  if (typeof outcome === 'number') {
    base.response = { status: outcome, headers: {}, body: '', bytes: 0, truncated: false, json: 'empty' };
    base.answeredBy = responderOf(outcome);
  } else base.failure = { kind: outcome, message: outcome };
  return base;
}

describe("the report's network figures", () => {
  test('count retries by cause, failures by kind, front-end answers and what stayed unanswered', () => {
    seq = 0;
    const log = [
      attempt(200), // 0
      attempt(503), // 1
      attempt(200, { of: 1, cause: 'front-end' }), // 2
      attempt('reset'), // 3
      attempt('refused', { of: 3, cause: 'transport' }), // 4
      attempt(502, { of: 4, cause: 'transport' }), // 5: the request's last attempt, unanswered
      attempt(429), // 6
      attempt(200, { of: 6, cause: '429' }), // 7
    ];
    const n = networkOf(log);
    expect(n).toMatchObject({ requests: 4, retries: 4, retriesBy: { '429': 1, transport: 2, 'front-end': 1 }, transportFailures: 2, resets: 1, refused: 1 });
    expect([n.frontEndAnswers, n.unanswered, n.retriedShare, n.unstable]).toEqual([2, 1, 0.75, true]);
    expect(networkLines(n).join('\n')).toMatch(/4 attempt\(s\) sent again .*\nthe target is unstable: 75\.0 %/);
  });

  test('a quiet network says so in one line', () => {
    seq = 0;
    expect(networkLines(networkOf([attempt(200), attempt(404)]))).toEqual([
      'network: all 2 requests answered by the API at the first attempt (no retry, no transport failure, no front-end answer)',
    ]);
  });
});
