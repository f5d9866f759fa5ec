import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Manifest } from '../src/integrity/manifest.js';
import type { ConformanceDocument } from '../src/report/document.js';
import { ROOT } from './support/cli.js';
import { readJson } from './support/commands.js';

const exec = promisify(execFile);

// Issue 16: the suite as an npm package. Packed from this clone, installed from the tarball into
// an empty folder (dependencies from the registry), and run there with npx, embedded reference included.

const folder = mkdtempSync(join(tmpdir(), 'conformance-package-'));
const project = join(folder, 'project');
/** The environment of every command: none of this run's settings, nor vitest's. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.startsWith('CONFORMANCE_') && !name.startsWith('VITEST') && !name.startsWith('GITHUB_')),
);
let packed: { filename: string; size: number; unpackedSize: number; files: { path: string }[] };

async function npx(args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec('npx', args, { cwd: project, env, timeout: 180_000 });
    return { exitCode: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { exitCode: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

beforeAll(async () => {
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', folder], { cwd: ROOT, env, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 });
  packed = (JSON.parse(stdout.slice(stdout.indexOf('['))) as (typeof packed)[])[0]!;
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'owner-project', private: true }));
  await exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(folder, packed.filename)], { cwd: project, env, timeout: 240_000 });
}, 480_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('the npm package', () => {
  test('npm pack ships the sources a run loads, their build, the types and the build info, and no tests or mutants', () => {
    const paths = packed.files.map((f) => f.path);
    for (const file of [
      'bin/conformance.mjs',
      'dist/js/bin/index.js',
      'dist/js/src/cli/main.js',
      'dist/js/validators.cjs',
      'dist/js/lanes.bundle.js',
      'dist/js/lanes.entry.js',
      'dist/js/stamp',
      'src/cli/main.ts',
      'suites/general.suite.ts',
      'reference/server.ts',
      'profiles/reference.json',
      'schemas/fleet.schema.json',
      'fixtures/request-estimates.json',
      'build-info.json',
      'dist/types/bin/index.d.ts',
      'dist/types/src/report-types.d.ts',
      'dist/js/src/report-types.js',
    ]) {
      expect(paths, file).toContain(file);
    }
    expect(paths.filter((p) => p.startsWith('test/') || p.startsWith('mutants/') || p.startsWith('bench/'))).toEqual([]);
    // The clone is left as it was: what prepack builds goes with postpack.
    expect(existsSync(join(ROOT, 'build-info.json'))).toBe(false);
  });

  test('installed from its tarball, npx conformance --dry-run runs against the embedded reference', async () => {
    const result = await npx(['conformance', '--dry-run', '--only', 'GEN,RES']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^conformance: http:\/\/127\.0\.0\.1:\d+ \(embedded reference server\)/m);
  });

  test('installed from its tarball, npx conformance --only GEN runs, reports and verifies', async () => {
    const result = await npx(['conformance', '--only', 'GEN', '--report-dir', 'reports']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^verdict: conformant/m);
    const report = readJson<ConformanceDocument>(join(project, 'reports/conformance.json'));
    // The commit the package was packed from (build-info.json), not the folder's: it has no git.
    expect(report.suite.commit).toMatch(/^[0-9a-f]{40}(-dirty)?$/);
    expect(readJson<Manifest>(join(project, 'reports/manifest.json')).suite).toEqual(report.suite);
    const verify = await npx(['conformance', 'verify', 'reports']);
    expect(verify.exitCode, verify.stdout).toBe(0);
  });

  test('the installed package has the digest of the clone it was packed from, and its reports carry it', async () => {
    const installed = await npx(['conformance', '--suite-digest']);
    expect(installed.exitCode, installed.stderr).toBe(0);
    const { stdout } = await exec(process.execPath, [join(ROOT, 'bin/conformance.mjs'), '--suite-digest'], { cwd: ROOT, env });
    const digestOf = (text: string) => /^sha256:[0-9a-f]{64}/.exec(text)?.[0];
    expect(digestOf(installed.stdout)).toBeDefined();
    expect(digestOf(installed.stdout)).toBe(digestOf(stdout));
    // An installed package is no clone: nothing is dirty.
    expect(installed.stdout).not.toContain('working tree');
  });

  test('the kit imports from the package name', async () => {
    const { stdout } = await exec(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const kit = await import('api-v1-conformance'); console.log(typeof kit.run, typeof kit.verifyFolder, kit.CLAUSE_IDS.length)",
      ],
      { cwd: project, env },
    );
    expect(stdout.trim()).toMatch(/^function function \d+$/);
  });

  test('the report types entry point resolves at run time too, as a module with no members', async () => {
    const { stdout } = await exec(
      process.execPath,
      ['--input-type=module', '-e', "const report = await import('api-v1-conformance/report'); console.log(Object.keys(report).length)"],
      { cwd: project, env },
    );
    expect(stdout.trim()).toBe('0');
  });
});
