import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { CLAUSE_IDS, CLAUSES, FAMILIES, isClauseId } from '../src/clauses/catalogue.js';
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
});
