import { expect, test } from 'vitest';
import { ConformanceReporter } from '../reporters/conformance.js';

// A run whose vitest found no suite file (an install missing its build) ran no check: that is a
// fault of the suite, which makes the verdict inconclusive, never a run that passed with nothing.

test('a run in which vitest found no suite file to run is a fault of the suite, not a pass', () => {
  const reporter = new ConformanceReporter();
  reporter.onTestRunEnd([], [], 'passed');
  expect(reporter.suiteFaults).toEqual(['vitest found no suite file to run: the package is incomplete']);
  expect(reporter.records).toEqual([]);
});

test('a run interrupted before vitest collected its suite file is not blamed on the suite', () => {
  const reporter = new ConformanceReporter();
  reporter.onTestRunEnd([], [], 'interrupted');
  expect(reporter.suiteFaults).toEqual([]);
});
