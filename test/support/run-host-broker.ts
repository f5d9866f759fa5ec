import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { runInLocalHost, stopLocalHosts, type CommandOutput } from './run-host.js';

// The run hosts of a whole `npm test`, kept by vitest's own process (test/support/global-setup.ts)
// rather than by each test file: a test file's thread ends with the file, and with it every host
// it had started, so that each of some thirty files paid a host's start and its first, cold run
// (Node starting, the CLI loading, the JIT warming: some 2 CPU-seconds a host) for a handful of
// runs. Kept here, a host serves runs of every file in turn. A test file asks for a run on a
// socket of this machine, one JSON line, and reads its output back as one line.

/** The environment variable that names the socket to the test files' threads: `PID PATH`. */
const RUN_HOSTS_SOCKET = 'TEST_RUN_HOSTS_SOCKET';

/** Names the socket to the threads this process starts from now on (vitest's, which share its pid). */
export function announceRunHosts(path: string): void {
  process.env[RUN_HOSTS_SOCKET] = `${process.pid} ${path}`;
}

/**
 * The socket of the run hosts of this process, if it serves some: a thread of vitest's process
 * shares its pid. A process a test starts (a run in a network namespace) inherits the variable but
 * not the pid, and keeps hosts of its own, which reach what it reaches.
 */
export function servedRunHosts(): string | null {
  const [pid, path] = (process.env[RUN_HOSTS_SOCKET] ?? '').split(' ');
  return pid === String(process.pid) && path ? path : null;
}

interface RunRequest {
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly timeoutMs: number;
}

/** Serves runs on `path` until closed; closing also lets every idle host go. */
export function serveRunHosts(path: string): Promise<{ close(): Promise<void> }> {
  const server: Server = createServer((socket) => void serve(socket));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () =>
      resolve({
        close: async () => {
          await new Promise<void>((done) => server.close(() => done()));
          await stopLocalHosts();
        },
      }),
    );
  });
}

async function serve(socket: Socket): Promise<void> {
  socket.on('error', () => undefined);
  // A test that stops waiting (its file ended, its timeout passed) closes the socket: its run is let go.
  const abandoned = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  let request: RunRequest;
  try {
    request = JSON.parse(await firstLine(socket)) as RunRequest;
  } catch {
    // A thread that ended before it asked whole: nothing to run, and vitest's process carries on.
    socket.destroy();
    return;
  }
  const output = await runInLocalHost(request.args, request.env, request.cwd, request.timeoutMs, abandoned);
  if (!socket.destroyed) socket.end(`${JSON.stringify(output)}\n`);
}

/** `conformance ARGS` in a host of the server on `path`: as `runInLocalHost`, from a test file's thread. */
export async function runInServedHost(path: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd: string, timeoutMs: number): Promise<CommandOutput> {
  const socket = createConnection(path);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(`${JSON.stringify({ args, env, cwd, timeoutMs } satisfies RunRequest)}\n`);
  return JSON.parse(await firstLine(socket)) as CommandOutput;
}

function firstLine(socket: Socket): Promise<string> {
  // Decoded across chunks: a run's output holds characters of several bytes, which a chunk may cut.
  socket.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end < 0) return;
      socket.off('data', onData);
      resolve(text.slice(0, end));
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('end', () => (text.includes('\n') ? undefined : reject(new Error(`the run hosts' socket closed before a whole line: ${text.slice(0, 200)}`))));
  });
}
