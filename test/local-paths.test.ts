import { generateKeyPairSync } from 'node:crypto';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { ConformanceDocument } from '../src/report/document.js';
import { ROOT } from './support/cli.js';
import { readJson, runConformance, scratch } from './support/commands.js';

test('no absolute path of the machine (the tmp dir, the cwd, $HOME, the suite) appears in any file of a report folder: file names only', async () => {
  const cwd = scratch();
  const profile = join(cwd, 'my-deployment.json');
  copyFileSync(join(ROOT, 'profiles/reference.json'), profile);
  const key = join(cwd, 'vendor.pem');
  writeFileSync(key, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  const dir = join(cwd, 'reports');
  const first = await runConformance(['--profile', profile, '--report-dir', dir, '--sign-key', key, '--only', 'GEN', '--property-runs', '5'], {}, cwd);
  expect(first.exitCode, first.stderr).toBe(0);
  // Again, against the first as a baseline: the comparison names the baseline too.
  const second = await runConformance(
    [
      '--profile',
      profile,
      '--report-dir',
      join(cwd, 'again'),
      '--sign-key',
      key,
      '--only',
      'GEN',
      '--property-runs',
      '5',
      '--baseline',
      join(dir, 'conformance.json'),
    ],
    {},
    cwd,
  );
  expect(second.exitCode, second.stderr).toBe(0);
  const local = [...new Set([cwd, tmpdir(), homedir(), process.cwd(), ROOT.replace(/\/$/, '')])];
  for (const folder of [dir, join(cwd, 'again')]) {
    for (const file of readdirSync(folder)) {
      const text = readFileSync(join(folder, file), 'utf8');
      for (const path of local) expect(text.includes(path), `${file} names ${path}`).toBe(false);
    }
  }
  const report = readJson<ConformanceDocument>(join(dir, 'conformance.json'));
  expect(report.profile.source).toMatch(/^my-deployment\.json( |$)/);
  expect(report.settings).toMatchObject({ profile: 'my-deployment.json', reportDir: 'reports', signKey: 'vendor.pem' });
  expect(report.command).toEqual(expect.arrayContaining(['--profile', 'my-deployment.json', '--sign-key', 'vendor.pem']));
  expect(readJson<ConformanceDocument>(join(cwd, 'again/conformance.json')).baseline?.baseline).toBe('conformance.json');
}, 120_000);
