import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { COVERAGE_FILE, generateCoverage } from '../scripts/coverage.js';
import { ESTIMATES_FILE } from '../src/run/estimates.js';

test('docs/coverage.md and fixtures/request-estimates.json are current (regenerate with npm run coverage)', async () => {
  const generated = await generateCoverage();
  expect(readFileSync(COVERAGE_FILE, 'utf8')).toBe(generated.coverage);
  expect(JSON.parse(readFileSync(ESTIMATES_FILE, 'utf8'))).toEqual(JSON.parse(generated.estimates));
});
