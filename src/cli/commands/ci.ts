import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { annotationLines, boundedSummary, outputLines, splitArguments } from '../../ci/github-step.js';
import { ConformanceError } from '../../errors.js';
import { PACKAGE_ROOT } from '../../package-root.js';
import type { Output } from '../../output.js';
import type { ConformanceDocument } from '../../report/document.js';
import type { Command } from '../command.js';
import { cleanupCommand } from './cleanup.js';

/**
 * The inputs of the action (`action.yml`) and the component (`templates/conformance.yml`), handed over as environment variables: an input is never
 * written into a shell line, where a quote in it would be code, nor echoed to the log.
 */
const INPUT = {
  baseUrl: 'CONFORMANCE_ACTION_BASE_URL',
  profile: 'CONFORMANCE_ACTION_PROFILE',
  reportDir: 'CONFORMANCE_ACTION_REPORT_DIR',
  baseline: 'CONFORMANCE_ACTION_BASELINE',
  args: 'CONFORMANCE_ACTION_ARGS',
} as const;

/** The report folder when the action is given none: beside the workspace's files, not in them. */
const DEFAULT_REPORT_DIR = 'conformance-reports';

/** Exit statuses of a process ended by a signal, as shells report them (128 + its number). */
const SIGNAL_EXIT: Record<string, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/**
 * `conformance ci run|cleanup`: the steps of the GitHub Action (`action.yml`) and of the GitLab
 * component (`templates/conformance.yml`). `run` runs the suite with the inputs and exits as the
 * run did; on GitHub it then writes the step summary (under GitHub's 1 MiB), at most 10
 * annotations of a kind and a notice counting the rest, and the outputs `verdict`, `exit-status`
 * and `report-dir`. `cleanup` deletes what the run's ledger lists.
 */
export const ciCommand: Command = async (args, io, parts) => {
  const [step, ...rest] = args;
  if (rest.length > 0)
    throw new ConformanceError('CONF_SETTING_INVALID', `ci ${step ?? ''} takes no arguments: the inputs come from the environment (CONFORMANCE_ACTION_*)`);
  if (step === 'run') return runStep([], io, parts);
  if (step === 'cleanup') return cleanupStep([], io, parts);
  throw new ConformanceError('CONF_SETTING_INVALID', 'ci needs a step: run or cleanup');
};

function input(name: keyof typeof INPUT): string | null {
  const value = process.env[INPUT[name]]?.trim();
  return value ? value : null;
}

function reportDir(): string {
  return resolve(input('reportDir') ?? DEFAULT_REPORT_DIR);
}

/** The run's flags from the inputs: the target, profile and report folder, the baseline, then the extra arguments. */
export function runArguments(): string[] {
  const argv: string[] = [];
  const baseUrl = input('baseUrl');
  const profile = input('profile');
  const baseline = input('baseline');
  if (baseUrl) argv.push('--base-url', baseUrl);
  if (profile) argv.push('--profile', profile);
  argv.push('--report-dir', reportDir());
  if (baseline) argv.push('--baseline', baseline);
  try {
    argv.push(...splitArguments(input('args') ?? ''));
  } catch (error) {
    throw new ConformanceError('CONF_SETTING_INVALID', `the action's args: ${(error as Error).message}`);
  }
  return argv;
}

const runStep: Command = async (_args, io) => {
  const argv = runArguments();
  const dir = reportDir();
  // The run writes neither the step summary nor annotations itself: this step writes them, bounded.
  const env = { ...process.env };
  delete env.GITHUB_STEP_SUMMARY;
  delete env.GITHUB_ACTIONS;
  // A group of its own, so that a signal sent to this step's group reaches the run once, forwarded
  // below: a second signal would make it exit at once, before its teardown.
  const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'bin/conformance.mjs'), ...argv], { stdio: 'inherit', env, detached: true });
  // A cancelled job: GitHub signals this step; the run gets the signal and ends as it does alone
  // (keys deleted within its teardown, a report that says it was interrupted).
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const s of signals) process.on(s, forward);
  const status = await new Promise<number>((done) => {
    child.on('exit', (code, signal) => done(code ?? SIGNAL_EXIT[signal ?? ''] ?? 2));
    child.on('error', () => done(2));
  });
  for (const s of signals) process.off(s, forward);
  reportStep(dir, status, io);
  return status;
};

/**
 * What the step makes of a run's report folder: the annotations, the step summary (bounded) and
 * the outputs. A folder without a report (the run never started) is `inconclusive`.
 */
export function reportStep(dir: string, status: number, io: Output): void {
  const report = readReport(dir);
  const verdict = report?.verdict ?? 'inconclusive';
  // Workflow commands mean something on GitHub only; elsewhere (GitLab) they would be noise in the log.
  if (report && process.env.GITHUB_ACTIONS === 'true') for (const line of annotationLines(report)) io.out(line);
  const summaryFile = join(dir, 'summary.md');
  if (process.env.GITHUB_STEP_SUMMARY && existsSync(summaryFile)) {
    appendFileSync(process.env.GITHUB_STEP_SUMMARY, boundedSummary(readFileSync(summaryFile, 'utf8')));
  }
  if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, outputLines({ verdict, 'exit-status': status, 'report-dir': dir }));
}

function readReport(dir: string): ConformanceDocument | null {
  try {
    return JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceDocument;
  } catch {
    return null;
  }
}

const cleanupStep: Command = async (_args, io, parts) => {
  if (!input('baseUrl') && !process.env.CONFORMANCE_BASE_URL?.trim()) {
    io.out('cleanup: nothing to delete: the run was against the embedded reference, which keeps nothing');
    return 0;
  }
  const argv: string[] = [];
  const baseUrl = input('baseUrl');
  const profile = input('profile');
  if (baseUrl) argv.push('--base-url', baseUrl);
  if (profile) argv.push('--profile', profile);
  argv.push('--report-dir', reportDir());
  return cleanupCommand(argv, io, parts);
};
