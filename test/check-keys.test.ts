import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { checkId, checksOf } from '../scripts/support/coverage-page.js';
import { VOCABULARY } from '../src/clauses/dimensions.js';
import type { ConformanceDocument } from '../src/report/document.js';
import { loadEstimates } from '../src/run/estimates.js';
import { ROOT } from './support/cli.js';

// A check is known by its clause and its key (`check(..., { key })`), never by its title: the
// request estimates and docs/coverage.md name it so, and a reworded title changes neither.

test('every check of the measured run has a key of its own within its clause', () => {
  const ids = loadEstimates().checks.map(checkId);
  expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  expect(ids.length).toBeGreaterThan(100);
});

test('the coverage generator refuses two checks of a clause with one key', () => {
  const record = (title: string) => ({ clause: 'GEN-1', key: 'unknown-path', title, status: 'pass' });
  const document = { clauses: [{ id: 'GEN-1', checks: [record('an unknown path answers JSON'), record('another unknown path answers JSON')] }] };
  expect(() => checksOf(document as unknown as ConformanceDocument)).toThrow(/two checks have the key GEN-1\/unknown-path/);
});

test("the report schema names the dimension vocabulary's states, value classes and filter combinations", () => {
  const schema = JSON.parse(readFileSync(`${ROOT}schemas/conformance-report.schema.json`, 'utf8')) as {
    $defs: { check: { properties: { dimensions: { properties: Record<'states' | 'values' | 'filters', { items: { enum: string[] } }> } } } };
  };
  const declared = schema.$defs.check.properties.dimensions.properties;
  expect(declared.states.items.enum).toEqual(VOCABULARY.states);
  expect(declared.values.items.enum).toEqual(VOCABULARY.values);
  expect(declared.filters.items.enum).toEqual(VOCABULARY.filters);
});
