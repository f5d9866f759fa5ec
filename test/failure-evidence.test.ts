import { expect, test } from 'vitest';
import type { ConformanceDocument } from '../src/report/document.js';
import { failureEvidence } from './support/failure-evidence.js';

const exchange = (seq: number, body: string) => ({
  seq,
  check: 'KEY-1 a key is created',
  startedAt: '2026-11-30T21:00:00.000Z',
  durationMs: 3,
  auth: 'created' as const,
  request: { method: 'GET', url: `http://127.0.0.1:1/api/v1/api_keys?page=${seq}`, headers: {} },
  response: { status: 200, headers: {}, body },
});

test("a red test's message names each failed check's exchanges: the check that sent it, its request and the start of its answer", () => {
  const report = {
    clauses: [
      {
        id: 'KEY-4',
        status: 'fail',
        checks: [
          {
            clause: 'KEY-4',
            title: 't',
            status: 'fail',
            reason: 'a part of its secret',
            evidence: [1, 2, 3, 4].map((n) => exchange(n, `{"items": [\n "[REDACTED]${'x'.repeat(400)}"]}`)),
          },
        ],
      },
      { id: 'KEY-5', status: 'pass', checks: [{ clause: 'KEY-5', title: 't', status: 'pass', evidence: [exchange(9, '{}')] }] },
    ],
  } as unknown as ConformanceDocument;
  const lines = failureEvidence(report).split('\n');
  expect(lines[0]).toBe('KEY-4 fail: a part of its secret');
  // At most three exchanges a check, each on one line, its body cut short.
  expect(lines).toHaveLength(4);
  expect(lines[1]).toMatch(
    /^ {2}#1 \(KEY-1 a key is created\) created \[GET\] "http:\/\/127\.0\.0\.1:1\/api\/v1\/api_keys\?page=1" -> 200 \{"items": \[ "\[REDACTED\]x+…$/,
  );
  expect(lines.join('\n')).not.toContain('#9');
});
