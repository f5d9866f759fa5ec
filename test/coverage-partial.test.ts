import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { COVERAGE_FILE, generateCoverage, SPANS_FILE } from '../scripts/coverage.js';
import { checkId, merged } from '../scripts/support/coverage-page.js';
import { familiesOf, SelectionError, selectionOf } from '../scripts/support/selection.js';
import { ESTIMATES_FILE, type RequestEstimates } from '../src/run/estimates.js';
import type { ClauseId } from '../src/clauses/catalogue.js';

// Issue 45: a check added to a family costs that family's run, not the whole suite's. `npm run
// coverage -- --only ERR` measures ERR's checks and keeps every other entry as stored.

describe('a partial re-measure (npm run coverage -- --only)', () => {
  test("re-measures the family's checks alone: every other entry is kept as stored, and the page is the whole run's", async () => {
    const stored = JSON.parse(readFileSync(ESTIMATES_FILE, 'utf8')) as RequestEstimates;
    const generated = await generateCoverage(['ERR']);
    const measured = JSON.parse(generated.estimates) as RequestEstimates;
    expect(measured.measuredWith).toEqual(stored.measuredWith);
    expect(measured.checks.map(checkId)).toEqual(stored.checks.map(checkId));
    // Not one entry of another family changed; ERR's are as a whole run measures them.
    expect(measured.checks.filter((c) => !c.clause.startsWith('ERR-'))).toEqual(stored.checks.filter((c) => !c.clause.startsWith('ERR-')));
    expect(generated.moved).toEqual([]);
    expect(generated.coverage).toBe(readFileSync(COVERAGE_FILE, 'utf8'));
    expect(generated.spans).toBe(readFileSync(SPANS_FILE, 'utf8'));
  });

  test("merging puts a family's fresh checks in the catalogue's order of clauses, a new check beside its clause's", () => {
    type Entry = { clause: ClauseId; key: string };
    const stored: Entry[] = [
      { clause: 'GEN-1', key: 'a' },
      { clause: 'ERR-1', key: 'old' },
      { clause: 'RATE-1', key: 'b' },
    ];
    const fresh: Entry[] = [
      { clause: 'ERR-1', key: 'old' },
      { clause: 'ERR-1', key: 'new' },
      { clause: 'GEN-1', key: 'not selected' },
    ];
    expect(merged(stored, fresh, ['ERR']).map((c) => `${c.clause}/${c.key}`)).toEqual(['GEN-1/a', 'ERR-1/old', 'ERR-1/new', 'RATE-1/b']);
  });

  test('the selection: --only families and clauses, --changed the families of the changed suite files, anything else one line', () => {
    expect(selectionOf([])).toEqual([]);
    expect(selectionOf(['--only', 'ERR,RATE-7'])).toEqual(['ERR', 'RATE-7']);
    expect(selectionOf(['--changed'], () => ['suites/errors.suite.ts', 'suites/general.suite.ts'])).toEqual(['ERR', 'GEN']);
    // A support module or a catalogue may change any check: the whole suite.
    expect(familiesOf(['suites/errors.suite.ts', 'suites/support/bursts.ts'])).toEqual([]);
    expect(() => selectionOf(['--only', 'ERR,NOPE'])).toThrow(SelectionError);
    expect(() => selectionOf(['--fast'])).toThrow(/usage: npm run coverage/);
  });
});
