import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { ConformanceDocument } from '../src/report/document.js';
import { compareReports } from '../src/report/baseline.js';
import { footprintLine } from '../src/report/footprint.js';
import { ROOT } from './support/cli.js';
import { readJson, runConformance, scratch, targetEnv, withMutants, withReference, type CommandResult } from './support/commands.js';

// A release gate: the baseline knows RES-1 fails; a later target also breaks RES-3.
const KNOWN = withMutants('workspace-description-null');
const WORSE = withMutants('workspace-description-null', 'record-data-as-string');

interface Run extends CommandResult {
  readonly file: string;
  readonly report: ConformanceDocument;
}

async function run(modify: typeof KNOWN, extra: string[] = []): Promise<Run> {
  return withReference(modify, async (target) => {
    const cwd = scratch();
    const profile = join(cwd, 'profile.json');
    writeFileSync(profile, JSON.stringify(target.profile));
    const dir = join(cwd, 'reports');
    const result = await runConformance(['--profile', profile, '--report-dir', dir, '--only', 'RES', ...extra], targetEnv(target), cwd);
    const file = join(dir, 'conformance.json');
    return { ...result, file, report: readJson<ConformanceDocument>(file) };
  });
}

let baseline: Run;
let known: Run;
let worse: Run;

beforeAll(async () => {
  baseline = await run(KNOWN);
  [known, worse] = await Promise.all([run(KNOWN, ['--baseline', baseline.file]), run(WORSE, ['--baseline', baseline.file])]);
}, 300_000);

const ids = (changes: readonly { id: string }[] | undefined) => (changes ?? []).map((c) => c.id);

describe('--baseline and diff', () => {
  test('without a baseline a known failure exits 1', () => {
    expect(baseline.exitCode).toBe(1);
    expect(baseline.report.clauses.find((c) => c.id === 'RES-1')!.status).toBe('fail');
  });

  test('with a baseline a known failure exits 0 and is listed as still failing', () => {
    expect(known.exitCode, known.stdout + known.stderr).toBe(0);
    expect(known.report.verdict).toBe('non-conformant');
    expect(ids(known.report.baseline?.regressions)).toEqual([]);
    expect(ids(known.report.baseline?.stillFailing)).toEqual(['RES-1']);
    expect(known.stdout).toMatch(/still failing \(known\): 1\n {4}RES-1 \(MUST\) fail → fail/);
    expect(known.stdout).toContain('no regression');
  });

  test('with a baseline a new failure exits 1 and is named a regression', () => {
    expect(worse.exitCode).toBe(1);
    expect(ids(worse.report.baseline?.regressions)).toContain('RES-3');
    expect(ids(worse.report.baseline?.regressions)).not.toContain('RES-1');
    expect(worse.stdout).toMatch(/regressions: \d+\n {4}RES-3 \(MUST\) pass → fail/);
  });

  test('the summary speaks of regressions first', async () => {
    const summary = readFileSync(join(worse.file, '../summary.md'), 'utf8');
    expect(summary).toMatch(/\*\*\d+ regression\(s\)\*\* against the baseline/);
    expect(summary).toMatch(/- regressions: .*RES-3 \(pass → fail\)/);
    expect(readFileSync(join(known.file, '../summary.md'), 'utf8')).toContain('**No regression**');
  });

  test('diff OLD NEW prints the same comparison and exits 1 on a regression', async () => {
    const forward = await runConformance(['diff', baseline.file, worse.file]);
    expect(forward.exitCode).toBe(1);
    expect(forward.stdout).toMatch(/regressions: \d+\n {4}RES-3 \(MUST\) pass → fail/);
    const backward = await runConformance(['diff', worse.file, baseline.file]);
    expect(backward.exitCode).toBe(0);
    expect(backward.stdout).toMatch(/fixed: \d+\n(.*\n)* {4}RES-3 \(MUST\) fail → pass/);
  });

  test('diff reports the checks run and property cases beside the clauses, as in the baseline when nothing changed', async () => {
    const same = await runConformance(['diff', baseline.file, known.file, '--require-complete']);
    expect(same.exitCode, same.stdout).toBe(0);
    expect(same.stdout).toMatch(/^ {2}checks run: \d+, as in the baseline; property cases: \d+, as in the baseline$/m);
    expect(known.report.baseline?.coverage).toMatchObject({ lost: [], regressed: false });
  });

  test('a clause that passed in the baseline and is no longer judged is a regression of coverage: exit 1 under --baseline --require-complete', async () => {
    const cwd = scratch();
    // The baseline judged AUTH-4 (a pass); this run's profile no longer declares the fact it needs.
    const judged = readJson<ConformanceDocument>(baseline.file);
    const auth4 = judged.clauses.find((c) => c.id === 'AUTH-4')!;
    Object.assign(auth4, { status: 'pass', checks: [] });
    delete (auth4 as { reason?: string }).reason;
    delete (auth4 as { cause?: string }).cause;
    const crafted = join(cwd, 'baseline.json');
    writeFileSync(crafted, JSON.stringify(judged));
    const profile = JSON.parse(readFileSync(join(ROOT, 'profiles/reference.json'), 'utf8')) as Record<string, unknown>;
    delete profile.forbiddenProbe;
    writeFileSync(join(cwd, 'profile.json'), JSON.stringify(profile));
    const dir = join(cwd, 'reports');
    const result = await runConformance(['--profile', 'profile.json', '--report-dir', dir, '--baseline', crafted, '--require-complete'], {}, cwd);
    expect(result.exitCode, result.stdout + result.stderr).toBe(1);
    const report = readJson<ConformanceDocument>(join(dir, 'conformance.json'));
    expect(report.verdict).toBe('conformant');
    expect(report.complete).toBe(true);
    expect(ids(report.baseline?.regressions)).toEqual([]);
    expect(ids(report.baseline?.coverage?.lost)).toEqual(['AUTH-4']);
    expect(result.stdout).toMatch(/coverage lost: 1 clause\(s\) passed in the baseline and are no longer judged\n {4}AUTH-4 \(MUST\) pass → not_applicable/);
    const diff = await runConformance(['diff', crafted, join(dir, 'conformance.json'), '--require-complete']);
    expect(diff.exitCode).toBe(1);
    expect((await runConformance(['diff', crafted, join(dir, 'conformance.json')])).exitCode).toBe(0);
  }, 180_000);

  test('diff compares footprints: a run that leaves more on the target than its baseline says so', () => {
    const before = readJson<ConformanceDocument>(baseline.file);
    const after = readJson<ConformanceDocument>(known.file);
    const created = { event: 'created' as const, kind: 'submission' as const, id: 'sub_1', runId: 'r', baseUrl: 'http://t', at: new Date().toISOString() };
    after.resources = { ...after.resources, created: [...after.resources.created, created] };
    const notes = compareReports(before, after, 'baseline.json').notes;
    expect(notes).toContain(
      `the baseline left ${footprintLine(before).replace('left on the target: ', '')}; this run leaves ${footprintLine(after).replace('left on the target: ', '')}`,
    );
    expect(compareReports(before, before, 'baseline.json').notes.some((n) => n.includes('this run leaves'))).toBe(false);
  });

  test('a baseline that is not a report stops the run with one line (exit 2)', async () => {
    const bogus = join(scratch(), 'not-a-report.json');
    writeFileSync(bogus, '{"verdict": "conformant"}');
    const result = await runConformance(['--baseline', bogus, '--only', 'GEN']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^CONF_REPORT_INVALID: baseline ".*" is not a conformance.json/);
  });
});
