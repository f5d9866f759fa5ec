import { expect, test } from 'vitest';
import { runAgainstReference } from './support/cli.js';

test('the reference is conformant with no warning, no failure and no suite fault', async () => {
  const run = await runAgainstReference();
  const flagged = run.report.clauses.filter((c) => ['fail', 'warn', 'error'].includes(c.status)).map((c) => `${c.id} ${c.status}: ${c.reason}`);
  expect(flagged).toEqual([]);
  expect(run.report.suiteFaults).toEqual([]);
  expect(run.report.verdict).toBe('conformant');
  expect(run.exitCode).toBe(0);
  expect(run.report.environment.unplanned429).toBe(0);
});
