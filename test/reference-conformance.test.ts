import { describe, expect, test } from 'vitest';
import { loadProfile } from '../src/profile/profile.js';
import { ROOT, runAgainstReference } from './support/cli.js';

// No false failures: the reference passes every check, under the shipped profile and under an
// alternate one in which every fact the document leaves open differs.
describe.concurrent('the reference', () => {
  test.each(['reference', 'alternate'])('is conformant with no warning, failure or suite fault under the %s profile', async (name) => {
    const run = await runAgainstReference({ profile: loadProfile(`${ROOT}profiles/${name}.json`).profile });
    const flagged = run.report.clauses.filter((c) => ['fail', 'warn', 'error'].includes(c.status)).map((c) => `${c.id} ${c.status}: ${c.reason}`);
    expect(flagged).toEqual([]);
    expect(run.report.suiteFaults).toEqual([]);
    expect(run.report.verdict).toBe('conformant');
    expect(run.exitCode).toBe(0);
    expect(run.report.environment.unplanned429).toBe(0);
  });
});
