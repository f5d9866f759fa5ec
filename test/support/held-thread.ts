import { spawn } from 'node:child_process';
import type { Outgoing } from '../../src/http/request.js';

// What the tests of a held thread share (request-deadline, idle-connection-after-hold,
// exchange-times): a target in a process of its own, so that holding the test's thread holds only
// the client, the hold, and the request the transport takes.

/** A local HTTP target in a process of its own; `close` ends it. */
export interface TargetProcess {
  readonly baseUrl: string;
  close(): void;
}

/**
 * Starts `node -e` with `handler`, the source of a `(req, res) => ...` function (run in the child,
 * where `connection` is the number of the connection the request came on, counted from 1).
 */
export async function startTargetProcess(handler: string): Promise<TargetProcess> {
  const source = `
    let connections = 0;
    const handler = ${handler};
    const server = require('node:http').createServer((req, res) => handler(req, res, req.socket.connection));
    server.on('connection', (socket) => { socket.connection = ++connections; });
    server.listen(0, '127.0.0.1', () => process.send(server.address().port));
    process.on('disconnect', () => process.exit(0));
  `;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  // A child that cannot start fails the test at once, as a run host does (run-host.ts), not at its timeout.
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve(m as number));
    child.once('exit', (code) => reject(new Error(`the target process exited (${code}) before it listened`)));
  });
  return { baseUrl: `http://127.0.0.1:${port}`, close: () => child.disconnect() };
}

/** Holds this thread, as synchronous work does: no timer, socket or promise runs meanwhile. */
export function hold(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** A GET of `path` as the transport takes it, with no key. */
export function getOf(baseUrl: string, path: string, timeoutMs?: number): Outgoing {
  return {
    spec: { path },
    method: 'GET',
    url: `${baseUrl}${path}`,
    headers: {},
    body: undefined,
    auth: 'none',
    bucket: 'anonymous',
    check: undefined,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
}
