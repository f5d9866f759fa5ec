import { describe, expect, test } from 'vitest';
import { referenceProfile } from '../reference/server.js';
import { NOT_ANSWERED, type CheckRecord } from '../src/check/outcome.js';
import { clauseResults, verdictOf } from '../src/verdict/verdict.js';

const context = { selection: { only: ['RES-1', 'RES-2'], skip: [] }, profile: referenceProfile(), hasOtherAccountKey: true, readOnly: false };
const refused = `${NOT_ANSWERED}: [GET] "http://t/api/v1/workspaces/ws_1": connection refused (after 3 retries)`;
const record = (clause: 'RES-1' | 'RES-2', status: CheckRecord['status'], reason?: string): CheckRecord => ({
  clause,
  key: `k-${status}`,
  title: status,
  status,
  ...(reason ? { reason } : {}),
});
const judge = (records: CheckRecord[]) => verdictOf(clauseResults(records, context), { strict: false, requireComplete: false });

describe('a check the API never answered is error, not fail', () => {
  test('the verdict is inconclusive (exit 2), saying the target did not answer, not that the suite broke', () => {
    const verdict = judge([record('RES-1', 'error', refused), record('RES-2', 'pass')]);
    expect([verdict.verdict, verdict.exitCode]).toEqual(['inconclusive', 2]);
    expect(verdict.because).toBe(
      '1 clause(s) could not be judged, the target did not answer: RES-1: [GET] "http://t/api/v1/workspaces/ws_1": connection refused (after 3 retries)',
    );
  });

  test('a failure shown on an answer of the API outweighs it: the clause fails and the run is non-conformant', () => {
    const results = clauseResults([record('RES-1', 'error', refused), record('RES-1', 'fail', 'answered 404, expected 200')], context);
    expect(results.find((r) => r.id === 'RES-1')?.status).toBe('fail');
    expect(judge([record('RES-1', 'error', refused), record('RES-1', 'fail', 'answered 404'), record('RES-2', 'error', refused)]).verdict).toBe(
      'non-conformant',
    );
  });

  test('a fault of the suite is still named as one', () => {
    expect(judge([record('RES-1', 'error', 'the suite broke: x is undefined'), record('RES-2', 'error', refused)]).because).toMatch(
      /^the suite itself broke: RES-1: /,
    );
  });
});
