import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { CLAUSE_IDS } from '../src/clauses/catalogue.js';
import type { ConformanceDocument } from '../src/report/document.js';
import { schemaErrors } from '../src/schemas.js';
import { ctrfProblems, harProblems } from './support/report-formats.js';
import { XMLLINT, xsdProblems } from './support/spawned.js';
import { junitCases, readJson, runConformance, scratch, targetEnv, withMutants, withReference, type CommandResult } from './support/commands.js';
import { readReport, sharedRun } from './support/cli.js';

// One target with a MUST fault (RES-1) and a SHOULD fault (GEN-2), run twice: as is and --strict.
const FAULTS = withMutants('workspace-description-null', 'version-prefix-ignored');

interface Run extends CommandResult {
  readonly dir: string;
  readonly report: ConformanceDocument;
  readonly junit: Map<string, 'failed' | 'skipped' | 'passed'>;
  readonly stepSummary: string;
}

let plain: Run;
let strict: Run;
/** A whole run of every suite against the embedded reference: every kind of record, keys created included. */
let whole: ConformanceDocument;
let wholeDir: string;

async function runOnce(extra: string[], env: Record<string, string>): Promise<Run> {
  return withReference(FAULTS, async (target) => {
    const cwd = scratch();
    const dir = join(cwd, 'reports');
    const stepSummaryFile = join(cwd, 'step-summary.md');
    writeFileSync(stepSummaryFile, '## an earlier step\n');
    const profile = join(cwd, 'profile.json');
    writeFileSync(profile, JSON.stringify(target.profile));
    const result = await runConformance(
      ['--profile', profile, '--report-dir', dir, '--only', 'GEN,RES', '--seed', '7', '--header', 'X-Gateway-Token: gateway-secret-value-123', ...extra],
      { ...targetEnv(target), GITHUB_STEP_SUMMARY: stepSummaryFile, ...env },
      cwd,
    );
    return {
      ...result,
      dir,
      report: readJson<ConformanceDocument>(join(dir, 'conformance.json')),
      junit: junitCases(readFileSync(join(dir, 'junit.xml'), 'utf8')),
      stepSummary: readFileSync(stepSummaryFile, 'utf8'),
    };
  });
}

beforeAll(async () => {
  // The same whole run as submission-cap.test.ts's, made once.
  const wholeRun = sharedRun([]).then((result) => {
    wholeDir = result.reportDir;
    return readReport(result);
  });
  [plain, strict, whole] = await Promise.all([runOnce([], {}), runOnce(['--strict'], { GITHUB_ACTIONS: 'true' }), wholeRun]);
}, 300_000);

/** Clause IDs of the JUnit test cases in a state. */
function junitClauses(run: Run, state: 'failed' | 'passed'): string[] {
  return [...new Set([...run.junit].filter(([, s]) => s === state).map(([name]) => name.split(' ')[0]!))].sort();
}

function clausesWith(run: Run, ...statuses: string[]): string[] {
  return run.report.clauses
    .filter((c) => statuses.includes(c.status))
    .map((c) => c.id)
    .sort();
}

describe('the reports of a run', () => {
  test('ctrf.json validates with the ctrf package, a test a clause with its status, requests and retries', () => {
    for (const dir of [wholeDir, plain.dir, strict.dir]) expect(ctrfProblems(dir), dir).toEqual([]);
    const ctrf = readJson<{ results: { tests: { name: string; status: string; retries?: number; extra?: { attempts: number } }[] } }>(
      join(plain.dir, 'ctrf.json'),
    );
    expect(ctrf.results.tests.map((t) => t.name.split(' ')[0])).toEqual(CLAUSE_IDS);
    expect(ctrf.results.tests.find((t) => t.name.startsWith('RES-1 '))?.status).toBe('failed');
    // A SHOULD warning passes, as in junit.xml; under --strict it fails.
    expect(ctrf.results.tests.find((t) => t.name.startsWith('GEN-2 '))?.status).toBe('passed');
    expect(readJson<typeof ctrf>(join(strict.dir, 'ctrf.json')).results.tests.find((t) => t.name.startsWith('GEN-2 '))?.status).toBe('failed');
    const whole = readJson<typeof ctrf>(join(wholeDir, 'ctrf.json'));
    expect(whole.results.tests.every((t) => typeof t.retries === 'number' && typeof t.extra?.attempts === 'number')).toBe(true);
    expect(whole.results.tests.reduce((n, t) => n + t.extra!.attempts, 0)).toBeGreaterThan(500);
  });

  test('exchanges.har is HAR 1.2 with every exchange of the run, each naming its check and clause, and no secret', () => {
    for (const dir of [wholeDir, plain.dir]) expect(harProblems(dir), dir).toEqual([]);
    const har = readJson<{ log: { entries: { comment: string; request: { headers: { name: string; value: string }[] } }[] } }>(join(wholeDir, 'exchanges.har'));
    expect(har.log.entries).toHaveLength(whole.environment.requests);
    expect(har.log.entries.filter((e) => /clause [A-Z]+-\d+, check: /.test(e.comment)).length).toBeGreaterThan(har.log.entries.length / 2);
    const text = readFileSync(join(plain.dir, 'exchanges.har'), 'utf8');
    expect(text).not.toContain('gateway-secret-value-123');
    expect(text).toContain('[REDACTED]');
  });

  test('a run writes conformance.json, junit.xml, report.html and summary.md', () => {
    for (const file of ['conformance.json', 'junit.xml', 'report.html', 'summary.md']) expect(existsSync(join(plain.dir, file)), file).toBe(true);
    expect(plain.stdout).toMatch(/reports: .*conformance\.json, .*report\.html, .*summary\.md, .*junit\.xml/);
  });

  test('conformance.json validates against its schema and lists every clause once', () => {
    expect(schemaErrors('conformance-report', plain.report)).toEqual([]);
    expect(schemaErrors('conformance-report', strict.report)).toEqual([]);
    expect(schemaErrors('conformance-report', whole)).toEqual([]);
    expect(whole.verdict).toBe('conformant');
    const keys = (entries: readonly { kind: string; id: string }[]) =>
      entries
        .filter((e) => e.kind === 'api_key')
        .map((e) => e.id)
        .sort();
    expect(keys(whole.resources.created).length).toBeGreaterThan(0);
    expect(keys(whole.resources.removed)).toEqual(keys(whole.resources.created));
    expect(plain.report.clauses.map((c) => c.id).sort()).toEqual([...CLAUSE_IDS].sort());
  });

  test('conformance.json says what was run: target, profile, versions, command, seed, times, counts', () => {
    const r = plain.report;
    expect(r.verdict).toBe('non-conformant');
    expect(r.target.embedded).toBe(false);
    expect(r.profile.content).toMatchObject({ name: 'reference' });
    expect(r.profile.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(r.suite.catalogueVersion).toBeTruthy();
    expect(r.seed).toBe(7);
    expect(r.command).toContain('--only');
    expect(Date.parse(r.endedAt) - Date.parse(r.startedAt)).toBe(r.durationMs);
    expect(r.counts.MUST.fail).toBe(1);
    expect(r.totals.fail + r.totals.warn + r.totals.pass + r.totals.not_applicable + r.totals.skipped + r.totals.error).toBe(CLAUSE_IDS.length);
    expect(r.unverifiable.length).toBeGreaterThan(0);
  });

  test('a failed check carries its reason, the redacted exchange and a curl line', () => {
    const failed = plain.report.clauses.find((c) => c.id === 'RES-1')!;
    expect(failed.status).toBe('fail');
    const check = failed.checks.find((c) => c.status === 'fail')!;
    expect(check.reason).toBeTruthy();
    expect(check.evidence!.length).toBeGreaterThan(0);
    expect(check.repro!.curl![0]).toMatch(/^curl .*\$CONFORMANCE_API_KEY/);
    expect(JSON.stringify(check.evidence)).toContain('[REDACTED]');
  });

  test('no secret reaches any report: neither the key nor an extra header value', () => {
    for (const file of ['conformance.json', 'junit.xml', 'report.html', 'summary.md']) {
      const text = readFileSync(join(plain.dir, file), 'utf8');
      expect(text, file).not.toContain('gateway-secret-value-123');
    }
    expect(plain.report.command.join(' ')).toContain('X-Gateway-Token: [REDACTED]');
  });

  test('JUnit fails exactly the failed clauses: a SHOULD warning passes', () => {
    expect(clausesWith(plain, 'warn')).toEqual(['GEN-2']);
    expect(junitClauses(plain, 'failed')).toEqual(clausesWith(plain, 'fail', 'error'));
    expect(junitClauses(plain, 'failed')).toEqual(['RES-1']);
    expect(junitClauses(plain, 'passed')).toContain('GEN-2');
    expect(plain.exitCode).toBe(1);
  });

  test('under --strict the SHOULD finding fails, in the report and in JUnit alike', () => {
    expect(clausesWith(strict, 'fail')).toEqual(['GEN-2', 'RES-1']);
    expect(junitClauses(strict, 'failed')).toEqual(['GEN-2', 'RES-1']);
    expect(strict.exitCode).toBe(1);
  });

  test('summary.md tables the verdict and the failures, and is appended to $GITHUB_STEP_SUMMARY', () => {
    const summary = readFileSync(join(plain.dir, 'summary.md'), 'utf8');
    expect(summary).toMatch(/^## API v1 conformance: ❌ non-conformant/);
    expect(summary).toMatch(/\| MUST \| \d+ \| 1 \| 0 \|/);
    expect(summary).toMatch(/\| RES-1 \| MUST \| fail \| .+ \|/);
    expect(summary).toMatch(/\| GEN-2 \| SHOULD \| warn \| .+ \|/);
    expect(plain.stepSummary).toBe(`## an earlier step\n${summary}`);
  });

  test('under GitHub Actions each finding is annotated with its clause, pointing at no file of the suite', () => {
    expect(strict.stdout).toMatch(/^::error title=RES-1 .*::RES-1: .+ \(details in report.html\)$/m);
    expect(strict.stdout).toMatch(/^::error title=GEN-2 /m);
    expect(strict.stdout).not.toMatch(/^::error .*file=/m);
    expect(plain.stdout).not.toContain('::error');
  });

  test('JUnit has one testsuite per family, a testcase per clause, and failures carrying reason, evidence and curl line', () => {
    const xml = readFileSync(join(plain.dir, 'junit.xml'), 'utf8');
    expect([...xml.matchAll(/<testsuite name="([A-Z]+)"/g)].map((m) => m[1])).toEqual(['GEN', 'RES', 'PAG', 'AUTH', 'KEY', 'SUB', 'ERR', 'RATE']);
    expect(xml.match(/<testcase /g)?.length).toBe(61);
    const failure = /<testcase classname="RES" name="RES-1 [^"]*" time="0"><failure message="([^"]+)" type="MUST">([\s\S]*?)<\/failure>/.exec(xml);
    expect(failure).not.toBeNull();
    expect(failure![2]).toMatch(/^&gt; GET http/m);
    expect(failure![2]).toMatch(/^&lt; 200/m);
    expect(failure![2]).toMatch(/^reproduce: curl .*\$CONFORMANCE_API_KEY/m);
    // Left out by --only: skipped, with the reason.
    expect(xml).toMatch(/<testcase classname="PAG" name="PAG-1 [^"]*" time="0"><skipped message="[^"]+"\/>/);
    // Skipped on a machine without xmllint; in CI (which installs it) never.
    if (XMLLINT || process.env.CI) expect(xsdProblems(join(plain.dir, 'junit.xml'), join(import.meta.dirname, 'fixtures/junit-10.xsd'))).toBe('');
  });

  test('the terminal shows a line per family, the verdict with counts and no JUnit notice of its own', () => {
    expect(plain.stdout).toMatch(/^ {2}general \(GEN\) +\d+ pass/m);
    expect(plain.stdout).toMatch(/^verdict: non-conformant.*: 1 clause\(s\) failed: RES-1$/m);
    expect(plain.stdout).toMatch(/^ {2}MUST +\d+ pass, 1 fail/m);
    expect(plain.stdout).not.toContain('JUNIT report written');
  });
});
