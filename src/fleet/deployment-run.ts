import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { Output } from '../output.js';
import type { Deployment } from './fleet-file.js';
import { PACKAGE_ROOT } from '../package-root.js';

const BIN = join(PACKAGE_ROOT, 'bin/conformance.mjs');

/** How one deployment's run ended. */
export interface DeploymentOutcome {
  readonly name: string;
  readonly exitCode: number;
  readonly durationMs: number;
  /** The run's last line on stderr when it ended inconclusive: why. */
  readonly problem: string | null;
}

/**
 * Runs the suite against one deployment in a process of its own (each run has its own broker,
 * reference and HTTP pool), its keys in that process's environment only, its report in `reportDir`.
 * Every line it prints is passed on prefixed with the deployment's name.
 */
export function runDeployment(
  deployment: Deployment,
  reportDir: string,
  runArgs: readonly string[],
  env: Readonly<Record<string, string>>,
  io: Output,
): Promise<DeploymentOutcome> {
  mkdirSync(reportDir, { recursive: true });
  const args = [
    BIN,
    ...(deployment.baseUrl ? ['--base-url', deployment.baseUrl] : []),
    ...(deployment.profileFile ? ['--profile', deployment.profileFile] : []),
    '--report-dir',
    reportDir,
    ...runArgs,
  ];
  const started = Date.now();
  // The report folder as working directory: no .env of the fleet's folder slips another key in.
  const child = spawn(process.execPath, args, { cwd: reportDir, env: { ...env, ...deployment.secrets }, stdio: ['ignore', 'pipe', 'pipe'] });
  let lastError: string | null = null;
  const relay = (stream: NodeJS.ReadableStream, write: (line: string) => void, keep: boolean) => {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (keep && line.trim()) lastError = line;
        write(`[${deployment.name}] ${line}`);
      }
    });
    stream.on('end', () => {
      if (!pending) return;
      if (keep) lastError = pending;
      write(`[${deployment.name}] ${pending}`);
    });
  };
  relay(child.stdout, io.out, false);
  relay(child.stderr, io.err, true);
  return new Promise((resolve) => {
    child.on('error', (error) =>
      resolve({ name: deployment.name, exitCode: 2, durationMs: Date.now() - started, problem: `could not start the run: ${error.message}` }),
    );
    child.on('close', (code, signal) =>
      resolve({
        name: deployment.name,
        exitCode: code ?? 2,
        durationMs: Date.now() - started,
        problem: code === 0 || code === 1 ? null : (lastError ?? `the run ended by ${signal ?? `exit ${code}`}`),
      }),
    );
  });
}
