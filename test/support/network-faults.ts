import { request as httpRequest, createServer as createHttpServer, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { heldMs, watchHolds } from '../../src/http/thread-holds.js';

// Surroundings a conformant deployment sits in, as servers of our own between the suite and a
// target: none of what they do is the API's, and the suite must not judge it as the API's.

/** A TCP relay in front of `upstream` (`http://host:port`). */
export interface Relay {
  readonly url: string;
  /** Connections reset because a packet came after they had idled past the NAT's timeout. */
  readonly resets: number;
  /** Connections relayed. */
  readonly connections: number;
  /** The target dies: listening stops and every connection is cut, so that new ones are refused. */
  kill(): void;
  close(): Promise<void>;
}

/**
 * A NAT or firewall that forgets a connection idle for `idleMs`: the next packet either way on it
 * is answered with a TCP reset (as a CI runner's gateway does after a long wait between windows).
 * Also the way to kill a target mid-run: `kill()` refuses every new connection from then on.
 */
export async function startRelay(upstream: string, options: { idleMs?: number } = {}): Promise<Relay> {
  const { hostname, port } = new URL(upstream);
  const idleMs = options.idleMs ?? Number.POSITIVE_INFINITY;
  const sockets = new Set<Socket>();
  let resets = 0;
  let connections = 0;
  // The relay shares its thread with the test and the reference: a packet that waited in its
  // socket while that thread was held did not wait on the wire, and a NAT would not count the
  // hold as idle time (stress at 9a511f8, run 7: resets the client had not earned).
  const unwatch = idleMs === Number.POSITIVE_INFINITY ? () => {} : watchHolds();
  const server: Server = createTcpServer((client) => {
    connections++;
    const target = connect(Number(port), hostname);
    sockets.add(client).add(target);
    let last = performance.now();
    let heldAtLast = heldMs();
    const forgotten = () => {
      if (performance.now() - last - (heldMs() - heldAtLast) <= idleMs) return false;
      resets++;
      client.resetAndDestroy();
      target.destroy();
      return true;
    };
    const seen = () => {
      last = performance.now();
      heldAtLast = heldMs();
    };
    client.on('data', (chunk: Buffer) => {
      if (forgotten()) return;
      seen();
      target.write(chunk);
    });
    target.on('data', (chunk: Buffer) => {
      if (forgotten()) return;
      seen();
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      target.destroy();
      sockets.delete(client);
      sockets.delete(target);
    };
    for (const socket of [client, target]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let killed = false;
  return {
    url,
    get resets() {
      return resets;
    },
    get connections() {
      return connections;
    },
    kill() {
      if (killed) return;
      killed = true;
      unwatch();
      server.close();
      for (const socket of sockets) socket.resetAndDestroy();
    },
    close: async () => {
      if (!killed) {
        killed = true;
        unwatch();
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}

/** How a front end answers in place of the API: status, body and headers, in turn. */
const FRONT_END_ANSWERS = [
  {
    status: 503,
    type: 'application/json',
    body: '{"error":{"type":"api_error","code":"service_unavailable","message":"upstream unavailable","param":null,"path":null}}',
    retryAfter: '1',
  },
  {
    status: 502,
    type: 'text/html',
    body: '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
  },
  {
    status: 504,
    type: 'text/html',
    body: '<html><head><title>504 Gateway Time-out</title></head><body><center><h1>504 Gateway Time-out</h1></center></body></html>',
  },
  { status: 503, type: 'text/html', body: '<!DOCTYPE html><html><body><h1>Service Unavailable</h1><p>Back in a moment.</p></body></html>' },
  { status: 503, type: 'application/json', body: '{"message":"no healthy upstream"}', retryAfter: '0' },
] as const;

/** A front end in front of `upstream`. */
export interface FrontEnd {
  readonly url: string;
  /** Requests it answered itself, by status. */
  readonly answered: ReadonlyMap<number, number>;
  /** Requests it forwarded to the API. */
  readonly forwarded: number;
  close(): Promise<void>;
}

/**
 * A load balancer during a deploy: one request in `every` is answered by the front end itself and
 * never forwarded, with a 502, 503 or 504 in turn, as JSON or HTML, with and without Retry-After.
 * A write gets only the 503 (no upstream to forward to): a 502 or 504 to a write may come after
 * the API handled it, and the suite rightly does not send such a write again. The reads take the
 * answers in turn, so that every kind is met once three reads were answered by the front end.
 */
export async function startFlakyFrontEnd(upstream: string, options: { every: number }): Promise<FrontEnd> {
  const agent = new Agent({ keepAlive: true });
  const answered = new Map<number, number>();
  let forwarded = 0;
  let count = 0;
  let turn = 0;
  const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    count++;
    if (count % options.every === 0) {
      const write = !['GET', 'HEAD', 'OPTIONS'].includes(req.method ?? 'GET');
      // A write takes the 503 without taking a read's turn: which requests are writes follows the
      // run's timing, and a 502 or 504 whose turn fell on a write was never sent at all.
      const answer = write ? FRONT_END_ANSWERS[0] : FRONT_END_ANSWERS[turn++ % FRONT_END_ANSWERS.length]!;
      answered.set(answer.status, (answered.get(answer.status) ?? 0) + 1);
      req.resume();
      res.writeHead(answer.status, { 'content-type': answer.type, ...('retryAfter' in answer ? { 'retry-after': answer.retryAfter } : {}) });
      res.end(answer.body);
      return;
    }
    forwarded++;
    const out = httpRequest(new URL(req.url ?? '/', upstream), { method: req.method, headers: req.headers, agent }, (back) => {
      res.writeHead(back.statusCode ?? 502, back.headers);
      back.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answered,
    get forwarded() {
      return forwarded;
    },
    close: async () => {
      server.closeAllConnections();
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
