import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readSettings, signKeySource } from '../../config/settings.js';
import { ConformanceError } from '../../errors.js';
import { readFleetFile, type Deployment } from '../../fleet/fleet-file.js';
import { buildFleetReport, fleetHeadline, type DeploymentResult, type FleetReport } from '../../fleet/fleet-report.js';
import { runDeployment } from '../../fleet/deployment-run.js';
import { runBounded } from '../../fleet/schedule.js';
import { writeFleetReport } from '../../fleet/write-fleet.js';
import { Redactor } from '../../secrets/redactor.js';
import { loadPublicKey, loadSigningKey, type SigningKey } from '../../integrity/signing-key.js';
import { signatureLine, verified, verifyFolder } from '../../report/verify.js';
import { guardOutput, scrubReports } from '../../secrets/leak-scan.js';
import type { Output } from '../../output.js';
import type { Command } from '../command.js';

const FLAGS = {
  merge: { type: 'boolean' },
  'report-dir': { type: 'string' },
  concurrency: { type: 'string' },
  'sign-key': { type: 'string' },
  'public-key': { type: 'string' },
  // Given to every deployment's run as they are.
  only: { type: 'string', multiple: true },
  skip: { type: 'string', multiple: true },
  strict: { type: 'boolean' },
  'require-complete': { type: 'boolean' },
  'read-only': { type: 'boolean' },
  certify: { type: 'boolean' },
  seed: { type: 'string' },
  'property-runs': { type: 'string' },
  'max-submissions': { type: 'string' },
  timeout: { type: 'string' },
} as const;

const USAGE =
  'usage: conformance fleet FLEET.json [--report-dir DIR] [--concurrency N] [--sign-key FILE] [--certify] [run flags] | conformance fleet --merge DIR... [--report-dir DIR] [--public-key FILE]';

/**
 * `conformance fleet FLEET.json`: runs the suite against every deployment of a fleet file (in
 * parallel, bounded, never two runs on one key or one base URL), each report in `<report-dir>/<name>/`,
 * then the fleet report: `fleet.html`, `fleet.md`, `fleet.json`, deployments × clauses with the
 * disagreements first. `--merge DIR...` builds the same report from report folders made elsewhere
 * (one CI job per deployment), each checked against its manifest first. Exit: the worst verdict.
 */
export const fleetCommand: Command = async (args, rawIo) => {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: FLAGS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new ConformanceError('CONF_SETTING_INVALID', (error as Error).message.split('\n')[0]!);
  }
  const { values, positionals } = parsed;
  const out = resolve(values['report-dir'] ?? 'fleet-reports');
  const startedAt = new Date();
  if (values.merge) {
    if (positionals.length === 0) throw new ConformanceError('CONF_SETTING_INVALID', USAGE);
    return merge(
      positionals.map((p) => resolve(p)),
      out,
      values['public-key'] ? loadPublicKey(resolve(values['public-key'])) : null,
      rawIo,
      startedAt,
    );
  }
  if (positionals.length !== 1) throw new ConformanceError('CONF_SETTING_INVALID', USAGE);
  const runArgs = passThrough(values);
  const signKey = signKeySource(values['sign-key'] ?? null, process.env, process.cwd());
  // The runs' own flag checks, made once before anything runs (from a folder with no .env); the
  // signing key counts, so that --certify is refused here, once, for an unsigned fleet.
  readSettings(runArgs, signKey ? ('file' in signKey ? { CONFORMANCE_SIGN_KEY_FILE: signKey.file } : { CONFORMANCE_SIGN_KEY: signKey.pem }) : {}, out);
  const key = signKey ? loadSigningKey(signKey) : null;
  const fleet = readFleetFile(resolve(positionals[0]!));
  const concurrency = values.concurrency ? positiveInteger(values.concurrency) : fleet.concurrency;

  const redactor = secretsOf(fleet.deployments, key);
  const io = guardOutput(rawIo, redactor);
  const env = childEnv(key, signKey);
  const signArgs = signKey && 'file' in signKey ? ['--sign-key', signKey.file] : [];
  io.out(`fleet "${fleet.name}": ${fleet.deployments.length} deployment(s), ${Math.min(concurrency, fleet.deployments.length)} at a time, reports in ${out}`);
  let done = 0;
  const outcomes = await runBounded(fleet.deployments, {
    concurrency,
    // Never two runs on one key (they would share its rate-limit budget) nor on one target.
    locks: (d) => [...(d.baseUrl ? [`url:${d.baseUrl}`] : []), ...Object.values(d.secrets).map((s) => `secret:${s}`)],
    run: async (d) => {
      io.out(`fleet: ${d.name} started${d.baseUrl ? ` (${d.baseUrl})` : ' (embedded reference)'}`);
      const outcome = await runDeployment(d, join(out, d.name), [...runArgs, ...signArgs], env, io);
      io.out(`fleet: ${d.name} ended, exit ${outcome.exitCode} in ${(outcome.durationMs / 1000).toFixed(1)} s (${++done} of ${fleet.deployments.length} done)`);
      return outcome;
    },
  });
  const results: DeploymentResult[] = outcomes.map((o) => ({
    name: o.name,
    dir: join(out, o.name),
    exitCode: o.exitCode,
    durationMs: o.durationMs,
    problem: o.problem,
  }));
  const report = buildFleetReport(fleet.name, results, out, startedAt);
  const written = writeFleetReport(report, out, redactor, key);
  const leaked = scrubReports(out, redactor);
  if (leaked.length > 0 || io.leaks > 0) {
    io.err(
      `SECRET LEAK: a secret was found and scrubbed in ${[...leaked, ...(io.leaks > 0 ? ['the console output'] : [])].join(', ')}; the fleet is inconclusive`,
    );
    return 2;
  }
  closing(report, written, io);
  return report.exitCode;
};

/** `--merge`: report folders made elsewhere, each named after its folder, each verified first. */
function merge(dirs: readonly string[], out: string, publicKey: ReturnType<typeof loadPublicKey> | null, io: Output, startedAt: Date): number {
  const names = new Set<string>();
  const results = dirs.map((dir): DeploymentResult => {
    const name = basename(dir);
    if (names.has(name.toLowerCase()))
      throw new ConformanceError('CONF_FLEET_INVALID', `two report folders are named "${name}": each deployment's folder names it`);
    names.add(name.toLowerCase());
    if (!existsSync(join(dir, 'conformance.json'))) throw new ConformanceError('CONF_FLEET_INVALID', `"${dir}" holds no conformance.json`);
    const verification = verifyFolder(dir, publicKey);
    if (!verified(verification)) {
      throw new ConformanceError(
        'CONF_FLEET_INVALID',
        `"${dir}" is not as its run wrote it: ${verification.changed[0] ?? signatureLine(verification, publicKey)}`,
      );
    }
    return { name, dir, exitCode: null, durationMs: null, problem: null };
  });
  const report = buildFleetReport(`merge of ${dirs.length} report folder(s)`, results, out, startedAt);
  const written = writeFleetReport(report, out, new Redactor(), null);
  closing(report, written, io);
  return report.exitCode;
}

function closing(report: FleetReport, written: readonly string[], io: Output): void {
  // On a CI page the fleet's table stands in for the runs' own summaries.
  const stepSummary = process.env.GITHUB_STEP_SUMMARY;
  const markdown = written.find((f) => f.endsWith('fleet.md'));
  if (stepSummary && markdown) appendFileSync(stepSummary, readFileSync(markdown, 'utf8'));
  for (const d of report.deployments) io.out(`  ${d.name.padEnd(24)} ${d.verdict}${d.problem ? `: ${d.problem}` : ''}`);
  const disagreeing = report.clauses.filter((c) => c.disagree);
  if (disagreeing.length > 0) {
    io.out(`deployments disagree on ${disagreeing.length} clause(s):`);
    for (const c of disagreeing)
      io.out(
        `  ${c.id} (${c.level}): ${c.outliers.map((n) => `${n} ${c.statuses[n] ?? 'no report'}`).join(', ')}; the others ${Object.entries(c.statuses).find(([n]) => !c.outliers.includes(n))?.[1] ?? '—'}`,
      );
  } else {
    io.out('the deployments agree on every clause');
  }
  io.out(`fleet verdict: ${fleetHeadline(report)} (the worst of ${report.deployments.length})`);
  io.out(`fleet reports: ${written.join(', ')}`);
}

/** The flags every deployment's run gets, rebuilt from the parsed ones. */
function passThrough(values: Record<string, unknown>): string[] {
  const argv: string[] = [];
  for (const name of ['only', 'skip'] as const) for (const v of (values[name] as string[] | undefined) ?? []) argv.push(`--${name}`, v);
  for (const name of ['strict', 'require-complete', 'read-only', 'certify'] as const) if (values[name]) argv.push(`--${name}`);
  for (const name of ['seed', 'property-runs', 'max-submissions', 'timeout'] as const)
    if (values[name] !== undefined) argv.push(`--${name}`, values[name] as string);
  return argv;
}

/** Every secret of the fleet, so that none reaches the fleet's output or report folder. */
function secretsOf(deployments: readonly Deployment[], key: SigningKey | null): Redactor {
  const redactor = new Redactor();
  for (const d of deployments) {
    for (const [name, value] of Object.entries(d.secrets)) {
      if (name !== 'CONFORMANCE_EXTRA_HEADERS') redactor.add(value);
      else for (const line of value.split(/\r?\n/)) redactor.add(line.slice(line.indexOf(':') + 1).trim() || null);
    }
  }
  for (const form of key?.secretForms ?? []) redactor.add(form);
  return redactor;
}

/** The runs' environment: this one's, less every CONFORMANCE_ setting (each run gets its own) and the step summary (the fleet writes its own). */
function childEnv(key: SigningKey | null, source: ReturnType<typeof signKeySource>): Record<string, string> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !e[0].startsWith('CONFORMANCE_') && e[0] !== 'GITHUB_STEP_SUMMARY'),
  );
  if (key && source && 'pem' in source) env.CONFORMANCE_SIGN_KEY = source.pem;
  return env;
}

function positiveInteger(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 32)
    throw new ConformanceError('CONF_SETTING_INVALID', `--concurrency must be an integer from 1 to 32, got "${raw}"`);
  return Number(raw);
}
