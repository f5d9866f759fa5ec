import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The tests' CLI runs, each in a run host: a process that runs one CLI run after another
// (run-host-child.mjs), instead of a process of its own. Some four hundred runs a `npm test` each
// paid Node's start and the loading of the CLI and vitest, most of a small run's CPU on two busy
// cores. The run itself is the product's `main`, with its own settings, parts, vitest and worker
// thread: only the process around it is shared. What a process alone shows is run by runCli's
// `process: true` (run-cli.ts), or started by its test (signals, the launcher: spawned.ts).

const CHILD = fileURLToPath(new URL('./run-host-child.mjs', import.meta.url));

/** Runs a host serves before it is replaced: what a run leaves behind in it stays bounded. */
const RUNS_PER_HOST = 20;

interface Host {
  readonly child: ChildProcess;
  /** What the host's process read of its environment as it started (`startedWith`): a run that needs other is run in another host. */
  readonly start: string;
  readonly ready: Promise<void>;
  runs: number;
  /** The host's own standard error: why it died, when it does. */
  stderr: string;
}

const idle: Host[] = [];

function startHost(env: NodeJS.ProcessEnv): Host {
  const own = Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('CONFORMANCE_')));
  const child = fork(CHILD, [], { execArgv: [], env: own, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  const host = { child, start: startedWith(env), runs: 0, stderr: '' };
  // A message sent to a host that just died fails: its exit says so (runInHost).
  child.on('error', () => undefined);
  child.stderr!.on('data', (chunk: Buffer) => (host.stderr = (host.stderr + chunk.toString()).slice(-4000)));
  const ready = new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the run host exited (${code}) before it was ready: ${host.stderr}`)));
  });
  return Object.assign(host, { ready });
}

function alive(host: Host): boolean {
  return !host.child.killed && host.child.exitCode === null && host.child.signalCode === null;
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

/** What a command did: its exit status and everything it wrote. */
export interface CommandOutput {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `conformance ARGS` (any command) run in a run host of this process, in `cwd` and the environment
 * `env`. A command still going at `timeoutMs`, or once `abandoned` settles (nobody waits for it any
 * more), has its host killed: exit status -1, and the output it had written by then, as a process
 * killed at its deadline leaves it.
 */
export async function runInLocalHost(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  timeoutMs: number,
  abandoned: Promise<void> = new Promise(() => undefined),
): Promise<CommandOutput> {
  const start = startedWith(env);
  // A host that died while it waited (a rejection left unhandled by the run before) is let go.
  for (let i = idle.length - 1; i >= 0; i--) if (!alive(idle[i]!)) idle.splice(i, 1);
  const waiting = idle.findIndex((host) => host.start === start);
  const host = waiting >= 0 ? idle.splice(waiting, 1)[0]! : startHost(env);
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
    let settled = false;
    const kill = () => {
      if (settled) return;
      host.child.kill('SIGKILL');
      done(-1);
    };
    const timer = setTimeout(kill, timeoutMs);
    void abandoned.then(kill);
    const done = (code: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      host.child.off('message', onMessage);
      host.child.off('exit', onExit);
      resolve(code);
    };
    host.child.on('message', onMessage);
    host.child.once('exit', onExit);
    host.child.send({ args, env, cwd });
    if (!alive(host)) onExit(host.child.exitCode);
  });
  if (alive(host) && host.runs < RUNS_PER_HOST) park(host);
  else if (alive(host)) letGo(host);
  return { exitCode, stdout, stderr };
}

/** How long a host let go may take to exit before it is killed. */
const EXIT_MS = 5000;

/** Hosts let go and not yet exited. */
const leaving = new Set<Promise<void>>();

/** Its channel closed, a host exits (run-host-child.mjs); killed if it has not within EXIT_MS. */
function letGo(host: Host): void {
  const exited = new Promise<void>((resolve) => host.child.once('exit', () => resolve()));
  const timer = setTimeout(() => host.child.kill('SIGKILL'), EXIT_MS);
  host.child.disconnect();
  const gone = exited.finally(() => {
    clearTimeout(timer);
    leaving.delete(gone);
  });
  leaving.add(gone);
}

/**
 * Lets every idle host go, and settles once every host let go (those replaced after RUNS_PER_HOST
 * runs too) has exited: a host writes its compiled code into the compile cache as it exits, inside
 * the test run's scratch folder, which must not be removed under it.
 */
export async function stopLocalHosts(): Promise<void> {
  for (const host of idle.splice(0)) if (alive(host)) letGo(host);
  await Promise.all(leaving);
}

/**
 * The variables a process reads once, as it starts, and never again: Node's own (NODE_OPTIONS'
 * preloads, NODE_EXTRA_CA_CERTS' CAs), the dynamic loader's (LD_PRELOAD) and what it preloads
 * (libfaketime), OpenSSL's CA files. A run is hosted only by a process started with the same.
 */
function startedWith(env: NodeJS.ProcessEnv): string {
  return JSON.stringify(
    Object.entries(env)
      .filter(([name]) => /^(NODE_|LD_|FAKETIME|SSL_CERT_|UV_)/.test(name))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}
