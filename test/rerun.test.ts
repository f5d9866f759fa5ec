import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ConformanceDocument } from '../src/report/document.js';
import { readJson, runConformance, scratch, targetEnv, withMutants, withReference } from './support/commands.js';

const statuses = (report: ConformanceDocument) => Object.fromEntries(report.clauses.map((c) => [c.id, c.status]));

describe('rerun', () => {
  test('rerun of a remote run repeats its target, profile, seed, selection and flags, and its verdict', async () => {
    await withReference(withMutants('workspace-description-null', 'version-prefix-ignored'), async (target) => {
      const cwd = scratch();
      const profile = join(cwd, 'profile.json');
      writeFileSync(profile, JSON.stringify(target.profile));
      const first = await runConformance(
        ['--profile', profile, '--report-dir', join(cwd, 'reports'), '--only', 'GEN,RES', '--seed', '99', '--strict'],
        targetEnv(target),
        cwd,
      );
      expect(first.exitCode).toBe(1);
      const file = join(cwd, 'reports/conformance.json');
      const original = readJson<ConformanceDocument>(file);
      // Secrets come from the environment again; nothing else is given.
      const again = await runConformance(['rerun', file], { CONFORMANCE_API_KEY: target.keys.main, CONFORMANCE_OTHER_ACCOUNT_API_KEY: target.keys.other });
      expect(again.exitCode, again.stderr).toBe(1);
      const repeated = readJson<ConformanceDocument>(join(cwd, 'reports/rerun/conformance.json'));
      expect(repeated.verdict).toBe(original.verdict);
      expect(repeated.target.baseUrl).toBe(original.target.baseUrl);
      expect(repeated.seed).toBe(99);
      expect(repeated.profile.content).toEqual(original.profile.content);
      expect(repeated.settings).toMatchObject({ only: ['GEN', 'RES'], strict: true });
      expect(statuses(repeated)).toEqual(statuses(original));
      // The profile's own bytes (written compact above), not a re-serialisation: the same sha256.
      expect(repeated.profile.sha256).toBe(original.profile.sha256);
      expect(repeated.profile.text).toBe(JSON.stringify(target.profile));
      const diff = await runConformance(['diff', file, join(cwd, 'reports/rerun/conformance.json')]);
      expect(diff.exitCode, diff.stdout).toBe(0);
      expect(diff.stdout).not.toMatch(/note:|regressions:/);
      expect(diff.stdout).toMatch(/^  no regression$/m);
    });
  });

  test('rerun of an embedded run starts the embedded reference again', async () => {
    const cwd = scratch();
    const first = await runConformance(['--report-dir', join(cwd, 'reports'), '--only', 'GEN', '--seed', '5'], {}, cwd);
    expect(first.exitCode).toBe(0);
    const again = await runConformance(['rerun', join(cwd, 'reports/conformance.json'), '--report-dir', join(cwd, 'again')]);
    expect(again.exitCode, again.stderr).toBe(0);
    const original = readJson<ConformanceDocument>(join(cwd, 'reports/conformance.json'));
    const repeated = readJson<ConformanceDocument>(join(cwd, 'again/conformance.json'));
    expect(repeated.target.embedded).toBe(true);
    expect(repeated.seed).toBe(5);
    expect(repeated.profile.sha256).toBe(original.profile.sha256);
    expect(statuses(repeated)).toEqual(statuses(original));
  });

  test('rerun of a file that is not a report exits 2 with one line', async () => {
    const file = join(scratch(), 'x.json');
    writeFileSync(file, '[]');
    const result = await runConformance(['rerun', file]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^CONF_REPORT_INVALID: report ".*x.json" is not a conformance.json/);
  });
});
