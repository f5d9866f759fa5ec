import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ConformanceDocument } from '../src/report/document.js';
import { ROOT } from './support/cli.js';
import { readJson, runConformance, scratch } from './support/commands.js';

function signingKey(dir: string): string {
  const file = join(dir, 'vendor.pem');
  writeFileSync(file, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  return file;
}

describe('--certify', () => {
  test.each([
    [['--only', 'GEN'], /--only GEN/],
    [['--skip', 'RATE'], /--skip RATE/],
    [['--read-only'], /--read-only/],
    [['--property-runs', '10'], /10 case\(s\) a property/],
    [['--leave-keys'], /--leave-keys/],
    [['--max-submissions', '3'], /--max-submissions 3/],
  ])('refuses %j with one line and exit 2', async (flags, named) => {
    const cwd = scratch();
    const result = await runConformance(['--certify', '--sign-key', signingKey(cwd), ...flags], {}, cwd);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^CONF_SETTING_INVALID: --certify refuses /);
    expect(result.stderr).toMatch(named);
  });

  test('refuses an unsigned run', async () => {
    const result = await runConformance(['--certify']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^CONF_SETTING_INVALID: --certify refuses an unsigned run/);
  });

  test('a certification run that leaves a MUST clause unjudged is inconclusive, naming the clause and the profile fact it lacks', async () => {
    const cwd = scratch();
    const profile = JSON.parse(readFileSync(join(ROOT, 'profiles/reference.json'), 'utf8')) as Record<string, unknown>;
    delete profile.forbiddenProbe;
    const file = join(cwd, 'no-probe.json');
    writeFileSync(file, JSON.stringify(profile, null, 2));
    const dir = join(cwd, 'reports');
    const result = await runConformance(['--certify', '--sign-key', signingKey(cwd), '--profile', file, '--report-dir', dir], {}, cwd);
    expect(result.exitCode, result.stderr).toBe(2);
    const report = readJson<ConformanceDocument>(join(dir, 'conformance.json'));
    expect(report.verdict).toBe('inconclusive');
    expect(report.because).toMatch(/a certification needs every MUST clause judged/);
    expect(report.because).toMatch(/not applicable, would apply with a forbidden probe \(forbiddenProbe\)/);
    expect(report.mode).toEqual({ certification: true, headline: 'Certification run', departures: [] });
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('**Certification run**');
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(/id="mode" data-certification="true"><strong>Certification run</);
    // Its rerun is a certification run too: without a signing key it is refused as --certify refuses one.
    const rerun = await runConformance(['rerun', join(dir, 'conformance.json')], {}, cwd);
    expect(rerun.exitCode, rerun.stderr).toBe(2);
    expect(rerun.stderr).toMatch(/^CONF_SETTING_INVALID: --certify refuses an unsigned run/m);
  }, 120_000);

  test('any other run says plainly in its header that it is not a certification, and why', async () => {
    const cwd = scratch();
    const dir = join(cwd, 'reports');
    const result = await runConformance(['--only', 'GEN', '--property-runs', '10', '--report-dir', dir], {}, cwd);
    expect(result.exitCode, result.stderr).toBe(0);
    const report = readJson<ConformanceDocument>(join(dir, 'conformance.json'));
    expect(report.mode?.certification).toBe(false);
    expect(report.mode?.headline).toBe('not a certification: --only GEN, 10 case(s) a property (the full budget is 100), unsigned');
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain(`**${report.mode!.headline}**`);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('data-certification="false"><strong>not a certification: --only GEN');
  }, 120_000);
});
