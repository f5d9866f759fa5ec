import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ConformanceDocument } from '../src/report/document.js';
import { referenceProfile } from '../reference/server.js';
import { certificationVerdict } from '../src/verdict/certification.js';
import { clauseResults } from '../src/verdict/verdict.js';
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
    [['--explore', '1'], /--explore 1 \(the default is 4\)/],
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

  test('a profile that leaves MUST clauses unable to apply is refused before the first request: one line, exit 2, each clause and the fact it needs', async () => {
    const cwd = scratch();
    const profile = JSON.parse(readFileSync(join(ROOT, 'profiles/reference.json'), 'utf8')) as { forbiddenProbe?: unknown; paths: Record<string, unknown> };
    delete profile.forbiddenProbe;
    profile.paths.submissionList = null;
    const file = join(cwd, 'no-probe.json');
    writeFileSync(file, JSON.stringify(profile, null, 2));
    // A target that counts what reaches it: nothing may.
    let requests = 0;
    const target = createServer((_req, res) => {
      requests++;
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const dir = join(cwd, 'reports');
    try {
      const started = Date.now();
      const result = await runConformance(
        ['--certify', '--sign-key', signingKey(cwd), '--profile', file, '--report-dir', dir],
        {
          CONFORMANCE_BASE_URL: `http://127.0.0.1:${(target.address() as AddressInfo).port}`,
          CONFORMANCE_API_KEY: 'sk_test_unused',
          CONFORMANCE_OTHER_ACCOUNT_API_KEY: 'sk_test_other',
        },
        cwd,
      );
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/^CONF_PROFILE_INCOMPLETE: --certify refuses the profile "reference": 2 MUST clause\(s\) could not apply: /);
      expect(result.stderr).toMatch(/AUTH-4 needs a forbidden probe \(forbiddenProbe\)/);
      expect(result.stderr).toMatch(/SUB-4 needs the submission list path \(paths.submissionList\)/);
      expect(requests).toBe(0);
      expect(Date.now() - started).toBeLessThan(30_000);
      // The report folder says so too, for a CI page.
      const report = readJson<ConformanceDocument>(join(dir, 'conformance.json'));
      expect(report.verdict).toBe('inconclusive');
      expect(report.because).toMatch(/CONF_PROFILE_INCOMPLETE/);
      expect(report.mode).toEqual({ certification: true, headline: 'Certification run', departures: [] });
      expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('**Certification run**');
    } finally {
      target.close();
    }
  }, 120_000);

  test('a certification run that leaves a MUST clause unjudged for a cause found while running is inconclusive, naming the clause', () => {
    const results = clauseResults([], { selection: { only: [], skip: [] }, profile: referenceProfile(), hasOtherAccountKey: true, readOnly: false });
    const judged = results.map((r) =>
      r.id === 'PAG-1' ? { ...r, status: 'skipped' as const, reason: 'the target holds no records' } : { ...r, status: 'pass' as const },
    );
    const verdict = certificationVerdict({ verdict: 'conformant', exitCode: 0, complete: true, because: 'every MUST clause passed' }, judged, null);
    expect(verdict.verdict).toBe('inconclusive');
    expect(verdict.because).toBe('a certification needs every MUST clause judged; 1 not: PAG-1 skipped (the target holds no records)');
  });

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
