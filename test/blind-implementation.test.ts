import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import type { Profile } from '../src/profile/profile.js';
import { startBlind } from './support/blind.js';
import { documentOnly, readReport, runCli } from './support/cli.js';

// Tolerance beyond our own hands: an implementation written blind from the API document and the
// profile format alone (variants/blind/, Python's standard library and SQLite), never from the
// reference or the suites. Under its own profile it is conformant with no warning; told nothing
// (the document-only profile, every remote target's default), it is never non-conformant.

const PYTHON = (() => {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const SKIP = !PYTHON && !process.env.CI;

async function runBlind(profileOf: (own: Profile) => Profile) {
  const blind = await startBlind(1);
  try {
    const file = join(mkdtempSync(join(tmpdir(), 'profile-')), 'profile.json');
    writeFileSync(file, JSON.stringify(profileOf(blind.profile)));
    const result = await runCli(['--profile', file, '--property-runs', '25'], {
      CONFORMANCE_BASE_URL: blind.url,
      CONFORMANCE_API_KEY: blind.keys.main,
      CONFORMANCE_OTHER_ACCOUNT_API_KEY: blind.keys.other,
    });
    expect(existsSync(join(result.reportDir, 'conformance.json')), result.stderr || result.stdout).toBe(true);
    return { result, report: readReport(result) };
  } finally {
    await blind.close();
  }
}

const flagged = (report: ReturnType<typeof readReport>, statuses: readonly string[]) =>
  report.clauses.filter((c) => statuses.includes(c.status)).map((c) => `${c.id} ${c.status}: ${c.reason ?? ''}`);

describe.skipIf(SKIP)(`an implementation written blind${SKIP ? ' (skipped: no python3)' : ''}`, { concurrent: true }, () => {
  test('is conformant with no warning under its own profile', async () => {
    const { result, report } = await runBlind((own) => own);
    expect(flagged(report, ['fail', 'warn', 'error'])).toEqual([]);
    expect(report.suiteFaults).toEqual([]);
    expect(report.verdict).toBe('conformant');
    expect(result.exitCode).toBe(0);
  });

  test('is never non-conformant under the document-only profile', async () => {
    const { result, report } = await runBlind(documentOnly);
    expect(flagged(report, ['fail', 'warn', 'error'])).toEqual([]);
    expect(report.suiteFaults).toEqual([]);
    expect(report.verdict).toBe('conformant');
    expect(result.exitCode).toBe(0);
    // Every key the run made is deleted: the conventional key path works here.
    expect(report.resources.created.filter((e) => e.kind === 'api_key').length).toBe(report.resources.removed.length);
  });
});
