import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConformanceDocument } from '../../src/report/document.js';
import { runInLocalHost, type CommandOutput } from './run-host.js';
import { runInServedHost, servedRunHosts } from './run-host-broker.js';

// The CLI run (in a run host, or in a process of its own), and its report: what a script that only runs the CLI needs
// (scripts/coverage.ts starts its measured run before it loads anything heavy), without the
// reference server that cli.ts's other helpers start.

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin/conformance.mjs');

/**
 * The process the tests start is the run itself, without the launcher of bin/conformance.mjs in
 * front of it: a test's signal or SIGKILL reaches the run alone. test/launchers.test.ts tests the launcher.
 */
export const DIRECT_RUN = { CONFORMANCE_LAUNCHED: 'direct' } as const;

export interface CliResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly reportDir: string;
}

/**
 * Runs the CLI in a scratch directory, with only the given CONFORMANCE_* settings: in a run host
 * (run-host.ts), or told `process: true`, in a child process of its own, for what a process alone
 * shows (the environment Node reads as it starts, a preload, the process's exit) and for a run
 * measured as a user starts it (bench/, scripts/).
 */
export async function runCli(args: readonly string[], env: Record<string, string> = {}, options: CommandOptions = {}): Promise<CliResult> {
  const cwd = mkdtempSync(join(tmpdir(), 'conformance-'));
  const reportDir = join(cwd, 'reports');
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CONFORMANCE_') && !name.startsWith('VITEST')));
  return { ...(await runCommand(['--report-dir', reportDir, ...args], { ...clean, ...DIRECT_RUN, ...env }, cwd, options)), reportDir };
}

export interface CommandOptions {
  /** Past it the command is killed (its host, or its process): exit status -1. */
  readonly timeoutMs?: number;
  /** In a child process of its own, not in a run host. */
  readonly process?: boolean;
}

/** `conformance ARGS` (any command) in `cwd`, in the environment `env`, as `options` say. */
export function runCommand(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string, options: CommandOptions = {}): Promise<CommandOutput> {
  const timeoutMs = options.timeoutMs ?? 240_000;
  if (!options.process) {
    // The run hosts of the whole `npm test` where vitest's process serves them (global-setup.ts); else this process's own.
    const served = servedRunHosts();
    return served ? runInServedHost(served, args, env, cwd, timeoutMs) : runInLocalHost(args, env, cwd, timeoutMs);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? -1, stdout, stderr });
    });
  });
}

export function readReport(result: CliResult): ConformanceDocument {
  return JSON.parse(readFileSync(join(result.reportDir, 'conformance.json'), 'utf8')) as ConformanceDocument;
}
