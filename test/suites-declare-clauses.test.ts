import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { CLAUSE_IDS, CLAUSES, FAMILIES, familyOf, isClauseId, type ClauseId } from '../src/clauses/catalogue.js';
import { RUN_WIDE_JUDGES } from '../src/judge/run-wide.js';
import { selectedPhases, selectedSuites, SUITE_FAMILIES, suiteName, type SuiteName } from '../src/check/suite-order.js';
import { ROOT } from './support/cli.js';

const suiteFiles = readdirSync(`${ROOT}suites`).filter((f) => f.endsWith('.suite.ts'));

describe('clause registry', () => {
  test('every clause belongs to a family and has a summary and section', () => {
    for (const id of CLAUSE_IDS) {
      expect(FAMILIES.some((family) => id.startsWith(`${family}-`))).toBe(true);
      expect(CLAUSES[id].summary.length).toBeGreaterThan(10);
      expect(CLAUSES[id].section.length).toBeGreaterThan(3);
    }
  });

  test.each(suiteFiles)('%s defines tests only through check()', (file) => {
    const text = readFileSync(`${ROOT}suites/${file}`, 'utf8');
    expect(text).not.toMatch(/^\s*(test|it|describe)(\.\w+)?\s*\(/m);
    expect(text).not.toMatch(/from 'vitest'/);
  });

  test.each(suiteFiles)('%s names only known clauses', (file) => {
    const text = readFileSync(`${ROOT}suites/${file}`, 'utf8');
    for (const [, id] of text.matchAll(/check\(\s*'([A-Z]+-\d+)'/g)) expect(isClauseId(id!), `${id} in ${file}`).toBe(true);
    for (const [, id] of text.matchAll(/clause: '([A-Z]+-\d+)'/g)) expect(isClauseId(id!), `${id} in ${file}`).toBe(true);
  });

  // A run loads only the suite files that may hold a selected clause (selectedSuites): a file
  // naming a clause of a family its entry leaves out would see that clause's checks never run.
  test.each(suiteFiles)('%s names only clauses of the families SUITE_FAMILIES gives it', (file) => {
    const text = readFileSync(`${ROOT}suites/${file}`, 'utf8');
    const families = SUITE_FAMILIES[suiteName(file) as SuiteName];
    for (const [, id] of text.matchAll(/'([A-Z]+-\d+)'/g)) expect(families, `${id} in ${file}`).toContain(familyOf(id as ClauseId));
  });

  test('the run-wide suite is given the families of the run-wide judges', () => {
    const judged = new Set(Object.keys(RUN_WIDE_JUDGES).map((id) => familyOf(id as ClauseId)));
    expect([...SUITE_FAMILIES['run-wide']].sort()).toEqual([...judged].sort());
  });

  test('a selection loads the suite files of its families, and the run-wide judges where one of theirs is kept', () => {
    const files = (only: string[], skip: string[] = []) => selectedSuites({ only, skip });
    expect(files([])).toHaveLength(suiteFiles.length);
    expect(files(['AUTH'])).toEqual(['auth', 'explorer', 'pairs', 'after-writes', 'run-wide']);
    expect(files(['GEN-2'])).toEqual(['general', 'explorer', 'pairs', 'run-wide']);
    expect(files(['SUB', 'PAG-6'])).toEqual(['key-pagination', 'pagination', 'submissions', 'after-writes', 'run-wide']);
    expect(files([], ['GEN', 'RES', 'PAG', 'ERR', 'AUTH', 'SUB', 'KEY'])).toEqual(['rate-limits', 'ip-limits', 'run-wide']);
  });

  test('a selection keeps the lanes of its suites, and drops a lane or a phase left empty', () => {
    const lanes = (only: string[]) => selectedPhases({ only, skip: [] }).map((phase) => phase.map((lane) => lane.steps));
    expect(lanes(['AUTH', 'SUB'])).toEqual([[[['auth'], ['explorer']], [['submissions']]], [[['pairs']]], [[['after-writes']]], [[['run-wide']]]]);
    expect(lanes(['AUTH', 'KEY', 'RATE-7'])).toEqual([
      [[['auth'], ['keys', 'rate-limits'], ['explorer']]],
      [[['pairs']]],
      [[['ip-limits']]],
      [[['after-writes']]],
      [[['run-wide']]],
    ]);
    expect(lanes(['KEY', 'RATE-7'])).toEqual([[[['keys', 'rate-limits'], ['explorer']]], [[['ip-limits']]], [[['run-wide']]]]);
  });
});
