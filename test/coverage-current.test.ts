import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { COVERAGE_FILE, generateCoverage, SPANS_FILE } from '../scripts/coverage.js';
import { checkId } from '../scripts/support/coverage-page.js';
import { ESTIMATES_FILE, type RequestEstimates } from '../src/run/estimates.js';
import { NOT_REACHED_FILE } from '../src/clauses/dimensions.js';
import { moved, shape } from '../scripts/support/estimate-drift.js';

// Current: the same page and spans, the same checks (by clause and key) with the same facts, and
// request counts within the jitter of one-second windows (scripts/support/estimate-drift.ts).
test('docs/coverage.md, fixtures/request-estimates.json and fixtures/check-spans.json are current (regenerate with npm run coverage)', async () => {
  const generated = await generateCoverage();
  expect(readFileSync(COVERAGE_FILE, 'utf8')).toBe(generated.coverage);
  // What each check visited: what a re-measure of some families (npm run coverage -- --only) keeps of the others.
  expect(readFileSync(SPANS_FILE, 'utf8')).toBe(generated.spans);
  // A reason for a value no check visits that a check now visits is dropped by the script.
  expect(generated.stale).toEqual([]);
  expect(readFileSync(NOT_REACHED_FILE, 'utf8')).toBe(generated.notReached);
  const stored = JSON.parse(readFileSync(ESTIMATES_FILE, 'utf8')) as RequestEstimates;
  const measured = JSON.parse(generated.estimates) as RequestEstimates;
  expect(stored.measuredWith).toEqual(measured.measuredWith);
  expect(stored.checks.map(shape)).toEqual(measured.checks.map(shape));
  const byId = new Map(measured.checks.map((m) => [checkId(m), m]));
  const stale = stored.checks.flatMap((c) => {
    const m = byId.get(checkId(c))!;
    const off = moved(c, m);
    return off.length > 0 ? [`${checkId(c)}: ${off.join(', ')}`] : [];
  });
  expect(stale, 'request counts moved beyond window-boundary jitter').toEqual([]);
});
