import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runBounded } from '../src/fleet/schedule.js';
import type { FleetReport } from '../src/fleet/fleet-report.js';
import { schemaErrors } from '../src/schemas.js';
import { startReference, type RunningReference } from '../reference/server.js';
import { readJson, runConformance, scratch, withMutants, type CommandResult } from './support/commands.js';

// Issue 16: a fleet of five reference servers, one of them with a MUST fault (RES-1): the fleet
// report must single it out and the fleet exits 1. Runs are kept short (GEN and RES, 10 cases a property).

const NAMES = ['alpha', 'bravo', 'charlie', 'delta', 'echo'] as const;
const FAULTY = 'delta';
const targets: RunningReference[] = [];
const cwd = scratch('fleet-');
const out = join(cwd, 'out');
const env: Record<string, string> = {};
let fleet: CommandResult & { wallMs: number };
let report: FleetReport;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));
}

function fleetFile(deployments: unknown[], name = 'fleet.json'): string {
  const file = join(cwd, name);
  writeFileSync(file, JSON.stringify({ name: 'five references', concurrency: 5, deployments }));
  return file;
}

beforeAll(async () => {
  const deployments = [];
  for (const name of NAMES) {
    const target = await startReference({ windowSeconds: 1, ...(name === FAULTY ? { modify: withMutants('workspace-description-null') } : {}) });
    targets.push(target);
    writeFileSync(join(cwd, `${name}.profile.json`), JSON.stringify(target.profile));
    const variable = `${name.toUpperCase()}_API_KEY`;
    env[variable] = target.keys.main;
    env[`${name.toUpperCase()}_OTHER_KEY`] = target.keys.other;
    deployments.push({
      name,
      baseUrl: target.url,
      profile: `${name}.profile.json`,
      apiKeyEnv: variable,
      otherAccountApiKeyEnv: `${name.toUpperCase()}_OTHER_KEY`,
    });
  }
  const file = fleetFile(deployments);
  const started = Date.now();
  const result = await runConformance(['fleet', file, '--report-dir', out, '--only', 'GEN,RES', '--property-runs', '10', '--seed', '11'], env, cwd);
  fleet = { ...result, wallMs: Date.now() - started };
  report = readJson<FleetReport>(join(out, 'fleet.json'));
}, 240_000);

afterAll(async () => {
  await Promise.all(targets.map((t) => t.close()));
});

describe('conformance fleet', () => {
  test('five deployments run, each into its own report folder; the exit status is the worst verdict', () => {
    expect(fleet.exitCode, fleet.stderr).toBe(1);
    for (const name of NAMES) expect(existsSync(join(out, name, 'conformance.json')), name).toBe(true);
    expect(report.verdict).toBe('non-conformant');
    expect(Object.fromEntries(report.deployments.map((d) => [d.name, d.verdict]))).toEqual({
      alpha: 'conformant',
      bravo: 'conformant',
      charlie: 'conformant',
      delta: 'non-conformant',
      echo: 'conformant',
    });
    console.info(`fleet of ${NAMES.length} targets: ${(fleet.wallMs / 1000).toFixed(1)} s wall time`);
  });

  test('the fleet report puts first the clause on which one deployment differs, and names it', () => {
    const first = report.clauses[0]!;
    expect(first.id).toBe('RES-1');
    expect(first.disagree).toBe(true);
    expect(first.outliers).toEqual([FAULTY]);
    expect(first.statuses).toMatchObject({ alpha: 'pass', delta: 'fail' });
    expect(report.clauses.filter((c) => c.disagree).map((c) => c.id)).toEqual(['RES-1']);
    const html = readFileSync(join(out, 'fleet.html'), 'utf8');
    expect(html).toMatch(/<section id="disagreements"><h2>Clauses on which deployments disagree \(1\)<\/h2>/);
    expect(html).toMatch(
      /<tr class="clause" data-id="RES-1" data-disagree="true">.*<td data-deployment="delta" data-status="fail">.*<td class="outliers">delta<\/td><\/tr>/,
    );
    const markdown = readFileSync(join(out, 'fleet.md'), 'utf8');
    // Every run is narrowed by --only: the headline carries the worst qualifier.
    expect(markdown).toMatch(/^## API v1 conformance, five references: non-conformant \(incomplete\) \(exit 1\)$/m);
    expect(markdown).toMatch(/^\| RES-1 \| MUST \| pass \| pass \| pass \| FAIL \| pass \| delta \|$/m);
    expect(fleet.stdout).toMatch(/^ {2}RES-1 \(MUST\): delta fail; the others pass$/m);
  });

  test('progress shows per deployment', () => {
    for (const name of NAMES) {
      expect(fleet.stdout).toMatch(new RegExp(`^fleet: ${name} started`, 'm'));
      expect(fleet.stdout).toMatch(new RegExp(`^\\[${name}\\] {3}general \\(GEN\\) +\\d+ pass`, 'm'));
      expect(fleet.stdout).toMatch(new RegExp(`^fleet: ${name} ended, exit [01] in`, 'm'));
    }
  });

  test('no key of any deployment reaches the fleet output or any file under its folder', () => {
    const secrets = Object.values(env);
    for (const file of filesUnder(out)) {
      const text = readFileSync(file, 'utf8');
      for (const secret of secrets) expect(text.includes(secret), file).toBe(false);
    }
    for (const secret of secrets) expect((fleet.stdout + fleet.stderr).includes(secret)).toBe(false);
    expect(fleet.stderr).not.toContain('SECRET LEAK');
  });

  test('verify on the fleet folder checks the fleet report and every deployment folder', async () => {
    const ok = await runConformance(['verify', out]);
    expect(ok.exitCode, ok.stdout).toBe(0);
    const copy = join(scratch(), 'out');
    cpSync(out, copy, { recursive: true });
    const file = join(copy, 'charlie', 'report.html');
    const bytes = readFileSync(file);
    bytes[100] = bytes[100] === 0x61 ? 0x62 : 0x61;
    writeFileSync(file, bytes);
    const changed = await runConformance(['verify', copy]);
    expect(changed.exitCode).toBe(1);
    expect(changed.stdout).toMatch(/^ {2}charlie\/report\.html: changed /m);
  });

  test("--merge of the deployments' report folders gives the same fleet report", async () => {
    const merged = join(cwd, 'merged');
    const result = await runConformance(['fleet', '--merge', ...NAMES.map((n) => join(out, n)), '--report-dir', merged]);
    expect(result.exitCode, result.stderr).toBe(1);
    const again = readJson<FleetReport>(join(merged, 'fleet.json'));
    expect(again.clauses).toEqual(report.clauses);
    expect(again.deployments.map((d) => d.manifestSha256)).toEqual(report.deployments.map((d) => d.manifestSha256));
  });

  test('--merge refuses a report folder changed after its run, in one line', async () => {
    const copy = join(scratch(), 'echo');
    cpSync(join(out, 'echo'), copy, { recursive: true });
    writeFileSync(join(copy, 'summary.md'), `${readFileSync(join(copy, 'summary.md'), 'utf8')} `);
    const result = await runConformance(['fleet', '--merge', join(out, 'alpha'), copy, '--report-dir', join(scratch(), 'merged')]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^CONF_FLEET_INVALID: ".*echo" is not as its run wrote it: summary\.md: changed .*\n$/);
  });
});

describe('a bad fleet file', () => {
  test.each([
    [
      'a deployment whose key variable is not set',
      [{ name: 'a', baseUrl: 'http://127.0.0.1:9', apiKeyEnv: 'NOT_SET_ANYWHERE' }],
      /^CONF_FLEET_INVALID: fleet file ".*", deployments\[0\] "a": NOT_SET_ANYWHERE is not set in the environment$/m,
    ],
    ['a name that cannot name a folder', [{ name: '../up' }], /^CONF_FLEET_INVALID: fleet file ".*": \/deployments\/0\/name must match pattern/],
    [
      'a base URL without its key',
      [{ name: 'a', baseUrl: 'http://127.0.0.1:9' }],
      /^CONF_FLEET_INVALID: fleet file ".*": \/deployments\/0 must have property apiKeyEnv when property baseUrl is present/,
    ],
    ['two deployments of one name', [{ name: 'a' }, { name: 'A' }], /^CONF_FLEET_INVALID: .*deployments\[1\] "A": the name is taken by another deployment$/m],
    ['a missing profile', [{ name: 'a', profile: 'nope.json' }], /^CONF_FLEET_INVALID: .*deployments\[0\] "a": cannot read profile .*nope\.json: ENOENT$/m],
  ])('%s is one line and exit 2, before anything runs', async (_what, deployments, message) => {
    const dir = join(scratch(), 'never');
    const result = await runConformance(['fleet', fleetFile(deployments, `bad-${Math.random().toString(36).slice(2)}.json`), '--report-dir', dir]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(dir)).toBe(false);
  });

  test('the fleet schema accepts an embedded deployment and a remote one with its key variables', () => {
    expect(
      schemaErrors('fleet', {
        deployments: [{ name: 'smoke' }, { name: 'acme', baseUrl: 'https://api.acme.example', apiKeyEnv: 'ACME_KEY', otherAccountApiKeyEnv: 'ACME_OTHER' }],
      }),
    ).toEqual([]);
  });
});

describe('fleet scheduling', () => {
  test('runs up to the bound at once, never two jobs that share a lock', async () => {
    const jobs = [
      { id: 1, locks: ['key:a'] },
      { id: 2, locks: ['key:a'] },
      { id: 3, locks: ['key:b'] },
      { id: 4, locks: ['key:c'] },
      { id: 5, locks: ['key:d'] },
    ];
    const running = new Set<number>();
    const overlaps: string[] = [];
    let most = 0;
    const results = await runBounded(jobs, {
      concurrency: 3,
      locks: (j) => j.locks,
      run: async (j) => {
        for (const other of running) if (jobs[other - 1]!.locks.some((l) => j.locks.includes(l))) overlaps.push(`${other}+${j.id}`);
        running.add(j.id);
        most = Math.max(most, running.size);
        await new Promise((r) => setTimeout(r, 20));
        running.delete(j.id);
        return j.id * 10;
      },
    });
    expect(results).toEqual([10, 20, 30, 40, 50]);
    expect(overlaps).toEqual([]);
    expect(most).toBe(3);
  });
});
