import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { laneSuites, SUITE_ORDER, SUITE_PHASES, suiteName } from '../src/check/suite-order.js';
import { ROOT } from './support/cli.js';

// The suite files are a registry: a file missing from SUITE_ORDER would run in no declared place,
// and the run-wide judges must come after every other check.
test('every suite file is listed in SUITE_ORDER exactly once, and run-wide is last', () => {
  const files = readdirSync(join(ROOT, 'suites'))
    .filter((f) => f.endsWith('.suite.ts'))
    .map(suiteName)
    .sort();
  expect([...SUITE_ORDER].sort()).toEqual(files);
  expect(SUITE_ORDER[SUITE_ORDER.length - 1]).toBe('run-wide');
});

test('every suite runs in exactly one lane, and run-wide alone in the last phase', () => {
  const placed = SUITE_PHASES.flatMap((lanes) => lanes.flatMap(laneSuites));
  expect([...placed].sort()).toEqual([...SUITE_ORDER].sort());
  expect(SUITE_PHASES.at(-1)).toEqual([{ name: 'run-wide', steps: [['run-wide']] }]);
});
