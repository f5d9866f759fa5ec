import { createServer as createHttpServer, request as forwardRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, connect, type Socket } from 'node:net';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { startReference, type RunningReference } from '../../reference/server.js';
import type { ReferenceState } from '../../reference/state.js';
import { collections, COLLECTION_NAMES } from '../../src/target/collections.js';
import { liveRunKeys } from '../support/live-keys.js';

/**
 * A target that misbehaves: a reverse proxy in front of a real reference server that answers the
 * requests it spares faithfully and does one hostile thing to every other one. Sparing what the
 * preflight reads lets the run get past the preflight and meet the behaviour in its checks.
 */
export type HostileBehaviour =
  | 'never-answers'
  | 'stalls-after-headers'
  | 'drips-a-byte-a-second'
  | 'closes-mid-body'
  | 'answers-html'
  | 'json-labelled-text-plain'
  | 'endless-body'
  | 'answers-500'
  | 'answers-empty-object'
  | 'redirects-elsewhere';

export interface HostileOptions {
  /**
   * One behaviour for every request, or several shared by the requests' collections
   * (`byCollection`), so that one run meets them all: the same requests meet the same behaviour in
   * every run, whatever order concurrent requests arrive in.
   */
  readonly behaviour: HostileBehaviour | ((method: string, path: string) => HostileBehaviour);
  /** Which requests reach the reference unharmed. @default {@link afterPreflightSparingKeys} */
  readonly spare?: (req: IncomingMessage, path: string) => boolean;
  /** Where `redirects-elsewhere` points (another origin). */
  readonly redirectTo?: string;
  /** @default 302 */
  readonly redirectStatus?: 301 | 302 | 307;
  /** Serve over TLS with this key and certificate. */
  readonly tls?: { readonly key: string; readonly cert: string };
}

export interface HostileTarget {
  readonly url: string;
  /** The reference's keys and profile, so that a run can be pointed at the fixture. */
  readonly keys: RunningReference['keys'];
  readonly profile: RunningReference['profile'];
  readonly reference: RunningReference;
  /** What reached the fixture, in order, and the behaviour it met (none when spared). */
  readonly requests: { method: string; path: string; behaviour: HostileBehaviour | null; remotePort: number }[];
  /** Names of the keys the run created (`conformance-…`) that are still live on the reference. */
  liveRunKeys(): string[];
  close(): Promise<void>;
}

/**
 * The default: every request is spared until the first one that is not a GET of a list (the
 * preflight only reads lists), so the run gets past the preflight; from then on only creating
 * and deleting keys is spared, so checks create keys, meet the behaviour before they can
 * delete them, and the end-of-run cleanup must delete them.
 */
export function afterPreflightSparingKeys(state: ReferenceState): (req: IncomingMessage, path: string) => boolean {
  const endpoints = collections(state.profile);
  const lists = new Set(COLLECTION_NAMES.map((name) => endpoints[name].list).filter((p): p is string => p !== null));
  const keyItem = state.profile.paths.apiKey ? new RegExp(`^${state.profile.paths.apiKey.replace('{id}', '[^/]+')}$`) : null;
  let armed = false;
  return (req, path) => {
    if (!armed && req.method === 'GET' && lists.has(path)) return true;
    armed = true;
    return (req.method === 'POST' && path === '/api/v1/api_keys') || (req.method === 'DELETE' && keyItem !== null && keyItem.test(path));
  };
}

/** For behaviours that apply to every request, the preflight's included. */
export const SPARE_NOTHING = (): boolean => false;
/** A faithful front (TLS, say) for the reference. */
export const SPARE_EVERYTHING = (): boolean => true;

const BEHAVIOURS: Record<HostileBehaviour, (req: IncomingMessage, res: ServerResponse, options: HostileOptions) => void> = {
  'never-answers': () => {},
  'stalls-after-headers': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
  },
  'drips-a-byte-a-second': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const body = '{"items":[],"has_more":false,"total_count":0}';
    let sent = 0;
    const drip = () => (sent < body.length ? res.write(body[sent++]!) : res.end());
    drip();
    const timer = setInterval(drip, 1000);
    res.on('close', () => clearInterval(timer));
  },
  'closes-mid-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
    res.write('{"items":[{"id":"ws_');
    setTimeout(() => res.socket?.destroy(), 50);
  },
  // A framework's HTML error page. (A 502, 503 or 504 would be a front end's, retried and never judged.)
  'answers-html': (_req, res) => {
    res.writeHead(500, { 'content-type': 'text/html' });
    res.end('<html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1></body></html>');
  },
  'json-labelled-text-plain': (_req, res) => {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('{"error":{"type":"not_found_error","message":"Not found."}}');
  },
  // Streams for as long as the client reads; never holds more than one chunk.
  'endless-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    res.write('[');
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
    };
    res.on('drain', pump);
    pump();
  },
  'answers-500': (_req, res) => {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end('{"error":{"type":"api_error","message":"Unexpected server error."}}');
  },
  'answers-empty-object': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  },
  'redirects-elsewhere': (req, res, options) => {
    res.writeHead(options.redirectStatus ?? 302, { location: `${options.redirectTo ?? 'http://127.0.0.1:9'}${req.url}` });
    res.end();
  },
};

/**
 * Behaviours shared by collections: a request meets the behaviour of its method and the collection
 * its path names (`PATCH workspaces`, for `/api/v1/workspaces...`), else of the collection alone
 * (`workspaces`), and any other request `otherwise`'s.
 */
export function byCollection(
  behaviours: Readonly<Record<string, HostileBehaviour>>,
  otherwise: HostileBehaviour,
): (method: string, path: string) => HostileBehaviour {
  return (method, path) => {
    const collection = path.split('/').filter(Boolean)[2] ?? '';
    return behaviours[`${method} ${collection}`] ?? behaviours[collection] ?? otherwise;
  };
}

export async function startHostile(options: HostileOptions): Promise<HostileTarget> {
  let state: ReferenceState | null = null;
  const reference = await startReference({ windowSeconds: 1, modify: (app) => void (state = app.state) });
  const upstream = new URL(reference.url);
  const spare = options.spare ?? afterPreflightSparingKeys(state!);
  const requests: HostileTarget['requests'] = [];
  const behaviourOf = typeof options.behaviour === 'function' ? options.behaviour : () => options.behaviour as HostileBehaviour;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (spare(req, path)) {
      requests.push({ method: req.method ?? '?', path, behaviour: null, remotePort: req.socket.remotePort! });
      return forward(req, res, upstream);
    }
    const behaviour = behaviourOf(req.method ?? '?', path);
    requests.push({ method: req.method ?? '?', path, behaviour, remotePort: req.socket.remotePort! });
    req.resume();
    BEHAVIOURS[behaviour](req, res, options);
  };
  const server: HttpServer = options.tls ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, handle) : createHttpServer(handle);
  const url = await listen(server, options.tls ? 'https' : 'http');
  return {
    url,
    keys: reference.keys,
    profile: reference.profile,
    reference,
    requests,
    liveRunKeys: () => liveRunKeys(state!.store.accounts),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await reference.close();
    },
  };
}

function forward(req: IncomingMessage, res: ServerResponse, upstream: URL): void {
  const out = forwardRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  out.on('error', () => res.destroy());
  req.pipe(out);
}

type HttpServer = ReturnType<typeof createHttpServer> | ReturnType<typeof createHttpsServer>;

export async function listen(server: NetServer, scheme: string): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Records every request it receives and answers 200 `{}`: the origin a redirect names. */
export async function startRecorder(): Promise<{ url: string; seen: { method: string; url: string; authorization?: string }[]; close(): Promise<void> }> {
  const seen: { method: string; url: string; authorization?: string }[] = [];
  const server = createHttpServer((req, res) => {
    seen.push({ method: req.method ?? '?', url: req.url ?? '/', ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  const url = await listen(server, 'http');
  return {
    url,
    seen,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * A TCP front that holds back the server's side of every connection for `delayMs` (forever when
 * null): a TLS handshake that is slow, or never completes.
 */
export async function startSlowHandshake(upstreamUrl: string, delayMs: number | null): Promise<{ url: string; clientPorts: number[]; close(): Promise<void> }> {
  const upstream = new URL(upstreamUrl);
  const sockets = new Set<Socket>();
  /** Remote ports of the connections it accepted, to tell where they came from. */
  const clientPorts: number[] = [];
  const server = createTcpServer((client) => {
    sockets.add(client);
    clientPorts.push(client.remotePort!);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    if (delayMs === null) return;
    const target = connect(Number(upstream.port), upstream.hostname);
    sockets.add(target);
    target.on('error', () => client.destroy());
    client.on('close', () => target.destroy());
    client.pipe(target);
    target.pause();
    setTimeout(() => target.pipe(client), delayMs);
  });
  const address = await listen(server, 'https');
  return {
    url: address,
    clientPorts,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
