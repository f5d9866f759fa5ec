import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reapWithTests, stoppedWithTest } from '../reaper.js';

/** A front end running as a reverse proxy in front of an upstream, from its own temporary folder. */
export interface RunningFrontEnd {
  readonly name: string;
  /** http://127.0.0.1:<port>, without a trailing slash. */
  readonly url: string;
  /** One line per request the front end handled, or null when it keeps none. */
  readonly accessLog: string | null;
  /** The front end's own messages, for failure messages. */
  readonly errorLog: string | null;
  /** Stops the front end and removes its temporary folder. */
  close(): Promise<void>;
}

/** How one front end is run: its command line for a port, written into its own folder. */
export interface FrontEndLaunch {
  readonly name: string;
  readonly binary: string;
  /** Writes the configuration into `dir` for `port`; returns the arguments and extra environment. */
  prepare(dir: string, port: number): { args: string[]; env?: Record<string, string> };
  /** File names inside the folder. The process's stdout and stderr go to stdout.log and stderr.log. */
  readonly accessLog: string | null;
  readonly errorLog: string | null;
  /** @default 15000 */
  readonly startTimeoutMs?: number;
}

/** Starts the front end on a free loopback port; `upstream` was already checked by the caller. */
export async function startFrontEnd(launch: FrontEndLaunch): Promise<RunningFrontEnd> {
  const dir = mkdtempSync(join(tmpdir(), `${launch.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-`));
  const failures: string[] = [];
  try {
    // A port taken by another process between our probe and the front end's bind: try another.
    for (let attempt = 1; attempt <= 3; attempt++) {
      const port = await freePort();
      const started = await run(launch, dir, port);
      if ('child' in started) {
        const child = started.child;
        const at = (file: string | null) => (file === null ? null : join(dir, file));
        return {
          name: launch.name,
          url: `http://127.0.0.1:${port}`,
          accessLog: at(launch.accessLog),
          errorLog: at(launch.errorLog),
          async close() {
            await stop(child);
            rmSync(dir, { recursive: true, force: true });
          },
        };
      }
      failures.push(`attempt ${attempt} on port ${port}: ${started.failure}`);
      if (!/in use|cannot bind/i.test(started.failure)) break;
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error(`${launch.name} did not start:\n${failures.join('\n')}`);
}

/**
 * The upstream's host (without brackets) and port, and the two as `host:port` (an IPv6 host in
 * brackets), refusing what a plain-HTTP reverse proxy cannot reach.
 */
export function upstreamAddress(name: string, upstream: string): { host: string; port: number; hostPort: string } {
  const target = new URL(upstream);
  if (target.protocol !== 'http:') throw new Error(`${name}: the upstream must be an http URL, not ${upstream}`);
  const port = Number(target.port || '80');
  return { host: target.hostname.replace(/^\[(.*)\]$/, '$1'), port, hostPort: `${target.hostname}:${port}` };
}

/** A port the kernel just handed out on 127.0.0.1, released for the front end to take. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts the process and waits until its port accepts a connection, or until it exits or times out. */
async function run(launch: FrontEndLaunch, dir: string, port: number): Promise<{ child: ChildProcess } | { failure: string }> {
  const { args, env } = launch.prepare(dir, port);
  // Files rather than pipes: a chatty front end cannot fill memory, and its output outlives it.
  const stdout = openSync(join(dir, 'stdout.log'), 'a');
  const stderr = openSync(join(dir, 'stderr.log'), 'a');
  // Its own process group, so that a SIGKILL also reaches the workers it forked.
  const child = spawn(launch.binary, args, { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', stdout, stderr], detached: true });
  closeSync(stdout);
  closeSync(stderr);
  // Outside the tests' group: killed with them if they are cancelled before they stop it.
  reapWithTests(child.pid);
  let exited: string | null = null;
  const exit = new Promise<void>((resolve) => {
    child.once('error', (error) => {
      exited = `could not run ${launch.binary}: ${error.message}`;
      resolve();
    });
    child.once('exit', (code, signal) => {
      exited = `${launch.name} exited (${signal ?? `code ${code}`})`;
      resolve();
    });
  });
  const timeoutMs = launch.startTimeoutMs ?? 15_000;
  const deadline = Date.now() + timeoutMs;
  while (exited === null && Date.now() < deadline) {
    if (await answers(port)) {
      if (exited === null) return { child };
      break;
    }
    await Promise.race([exit, new Promise((resolve) => setTimeout(resolve, 50))]);
  }
  await stop(child);
  const output = ['stdout.log', 'stderr.log', launch.errorLog]
    .filter((file, i, all): file is string => file !== null && all.indexOf(file) === i)
    .map((file) => readIfThere(join(dir, file)).trim())
    .filter(Boolean)
    .join('\n');
  return { failure: `${exited ?? `no answer on port ${port} within ${timeoutMs} ms`}: ${output || '(no output)'}` };
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** SIGTERM to the front end, then SIGKILL to its whole process group if it lingers. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.pid === undefined) return;
  const pid = child.pid;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, 5_000);
    await exited;
    clearTimeout(timer);
  }
  // Workers the front end forked and left behind when it exited.
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // None left.
  }
  stoppedWithTest(pid);
}

function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
