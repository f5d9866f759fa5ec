import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CliResult } from './run-cli.js';

// The CLI's runs for the tests that judge what a run found (the kill and tolerance matrices, the
// blind implementations, runs against a reference): each run in a run host, a process that runs
// one CLI run after another (run-host-child.mjs), instead of a process of its own. Some four
// hundred runs a `npm test` each paid Node's start and the loading of the CLI and vitest, most of a
// small run's CPU on two busy cores. The run itself is the product's `main`, with its own settings,
// parts, vitest and worker thread: only the process around it is shared.
//
// What a process alone shows stays with runCli (run-cli.ts): signals, the launcher, exit on a
// second signal, a process's pid in the ledger, the environment Node reads as it starts (proxies
// and CA files for TLS), the output of a process that is killed.

const CHILD = fileURLToPath(new URL('./run-host-child.mjs', import.meta.url));

/** Runs a host serves before it is replaced: what a run leaves behind in it stays bounded. */
const RUNS_PER_HOST = 20;

interface Host {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  runs: number;
  /** The host's own standard error: why it died, when it does. */
  stderr: string;
}

const idle: Host[] = [];

function startHost(env: NodeJS.ProcessEnv): Host {
  const child = fork(CHILD, [], { execArgv: [], env, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  const host: Host = { child, ready: Promise.resolve(), runs: 0, stderr: '' };
  child.stderr!.on('data', (chunk: Buffer) => (host.stderr = (host.stderr + chunk.toString()).slice(-4000)));
  (host as { ready: Promise<void> }).ready = new Promise((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the run host exited (${code}) before it was ready: ${host.stderr}`)));
  });
  return host;
}

/** A host that holds nothing open: the test process may end while it waits. */
function park(host: Host): void {
  held(host, false);
  idle.push(host);
}

function held(host: Host, holding: boolean): void {
  // The child, its IPC channel and the pipe of its standard error each hold the event loop.
  for (const handle of [host.child, host.child.channel, host.child.stderr as unknown as { ref(): void; unref(): void } | null]) {
    if (holding) handle?.ref();
    else handle?.unref();
  }
}

/**
 * `runCli`'s result for one run in a run host: its exit status, everything it wrote, and its
 * report folder. A run still going at `timeoutMs` has its host killed: exit status -1, and the
 * output it had written by then, as runCli gives it.
 */
export async function runInHost(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string, reportDir: string, timeoutMs: number): Promise<CliResult> {
  const host = idle.pop() ?? startHost(hostEnvironment(env));
  held(host, true);
  await host.ready;
  host.runs++;
  let stdout = '';
  let stderr = '';
  const exitCode = await new Promise<number>((resolve) => {
    const onMessage = (message: { out?: string; err?: string; exitCode?: number }) => {
      if (message.out !== undefined) stdout += message.out;
      else if (message.err !== undefined) stderr += message.err;
      else if (message.exitCode !== undefined) done(message.exitCode);
    };
    const onExit = (code: number | null) => {
      stderr += `run host died during the run (${code}): ${host.stderr}`;
      done(code ?? -1);
    };
    const timer = setTimeout(() => {
      host.child.kill('SIGKILL');
      done(-1);
    }, timeoutMs);
    const done = (code: number) => {
      clearTimeout(timer);
      host.child.off('message', onMessage);
      host.child.off('exit', onExit);
      resolve(code);
    };
    host.child.on('message', onMessage);
    host.child.once('exit', onExit);
    host.child.send({ args: ['--report-dir', reportDir, ...args], env, cwd });
  });
  if (host.child.exitCode === null && host.child.signalCode === null && host.runs < RUNS_PER_HOST) park(host);
  else host.child.kill('SIGKILL');
  return { exitCode, stdout, stderr, reportDir };
}

/** The host's own environment: the test process's, without the settings a run is given. */
function hostEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('CONFORMANCE_')));
}
