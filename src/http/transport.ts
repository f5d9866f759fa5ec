import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Dispatcher, Pool as UndiciPool, buildConnector as UndiciConnector } from 'undici';
import { Agent, buildConnector, Client, EnvHttpProxyAgent, Pool, request as undiciRequest } from './undici.js';
import { skipInterimContinue } from './interim-continue.js';
import type { Exchange, TransportFailureKind } from './exchange.js';
import { fragileAtHttpLevel } from './front-end-fragile.js';
import { describeRequest, responderOf } from './exchange.js';
import { TransportFailure } from './failures.js';
import { deadline, MOST_TIMES } from './deadline.js';
import { holdUnderWayMs, watchHolds } from './thread-holds.js';
import { DEFAULT_TIMEOUT_MS } from './layers/limits.js';
import { listSkeleton } from './list-skeleton.js';
import { notUtf8 } from './utf8.js';
import type { Send } from './layer.js';
import type { Outgoing } from './request.js';
import { currentClock, SIMULATED_TIME_HEADER, suiteNow } from '../clock.js';

/** Kept of a body in the log; complete bodies only pass through the broker's leak scan. */
export const LOGGED_BODY_LIMIT = 64 * 1024;
const UNCAPPED = Number.MAX_SAFE_INTEGER;

/**
 * The keep-alive pools, by their connect timeout: one shared by every request of that deadline, and
 * one of a single connection for each name a request gives (`RequestSpec.connection`).
 */
const pools = new Map<number, { shared: Dispatcher | null; own: Map<string, Dispatcher> }>();
/** Ends the watch on this thread's holds that the pool keeps while it lives (`retireHeldPools`). */
let unwatchPool: (() => void) | null = null;
/** Pools retired after a hold, finishing the requests they carried (`closeDispatcher` waits for them). */
const retiring = new Set<Promise<void>>();

/**
 * How long an idle connection is kept for reuse, whatever the server's Keep-Alive hint says.
 * A NAT or firewall that forgets a connection idle for a few seconds answers the next packet on
 * it with a reset (CI runners sit behind such gateways, and a paced run idles between windows),
 * and a server closes its end after its own idle timeout (Node's: 5 s): a request sent on such a
 * connection is lost, and a write cannot safely be sent again. Below both, as robust clients
 * keep it (undici's own default is 4 s); a new connection costs a handshake, a lost write a check.
 */
export const IDLE_CONNECTION_MS = 1000;

/**
 * The pool for a request of this deadline: one keep-alive pool per deadline in each thread, and a
 * connection of its own for each name a request gives (`RequestSpec.connection`); honours
 * HTTP(S)_PROXY and NO_PROXY when set. The connect timeout is the request's deadline: undici does
 * not abort a connection (a TLS handshake that never completes) on the request's signal, so
 * without it a stalled handshake took 10 s whatever `--timeout` said. And it is each request's
 * own: a pool made for the first request's deadline (the run's 10 s) left a shorter one after it
 * (the bounded teardown after a signal) waiting out the longer connect timeout.
 */
function dispatcher(deadlineMs: number, connection?: string): Dispatcher {
  unwatchPool ??= watchHolds();
  const connectMs = Math.min(deadlineMs, 10_000);
  let pool = pools.get(connectMs);
  if (!pool) pools.set(connectMs, (pool = { shared: null, own: new Map() }));
  if (connection !== undefined) {
    let own = pool.own.get(connection);
    if (!own) pool.own.set(connection, (own = makeDispatcher(connectMs, 1)));
    return own;
  }
  pool.shared ??= makeDispatcher(connectMs, 16);
  return pool.shared;
}

/** Every pool there is, each pool forgotten: new requests get new ones. */
function takePools(): Dispatcher[] {
  const all = [...pools.values()].flatMap(({ shared, own }) => [...(shared ? [shared] : []), ...own.values()]);
  pools.clear();
  return all;
}

function makeDispatcher(connectMs: number, connections: number): Dispatcher {
  const options = { connections, keepAliveTimeout: IDLE_CONNECTION_MS, keepAliveMaxTimeout: IDLE_CONNECTION_MS, connect: { timeout: connectMs } };
  const proxied = ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy'].some((name) => process.env[name]);
  if (proxied) return new EnvHttpProxyAgent({ ...options, factory: originSkippingContinue });
  return new Agent({ ...options, factory: originSkippingContinue });
}

/**
 * An origin's connections, each skipping the unasked `100` heads that begin its responses
 * (`src/http/interim-continue.ts`). The agents hand their origins' pools a connector: undici's own
 * for a direct connection (built here from the connect options), and through a proxy the proxy
 * agent's, which opens a CONNECT tunnel; either way the socket undici reads answers from is the one
 * wrapped, so an origin's 100 relayed through the tunnel is skipped too. As undici's default
 * factory: one connection is a client, more a pool.
 */
function originSkippingContinue(origin: string | URL, options: UndiciPool.Options): Dispatcher {
  const given = options.connect;
  const connect: UndiciConnector.connector = typeof given === 'function' ? given : buildConnector({ ...given });
  const skipping: UndiciConnector.connector = (opts, callback) =>
    connect(opts, (error, socket) => (error ? callback(error, null) : callback(null, skipInterimContinue(socket!))));
  return options.connections === 1 ? new Client(origin, { ...options, connect: skipping }) : new Pool(origin, { ...options, connect: skipping });
}

/**
 * Retires the pools when this thread has been held past half the idle limit since its loop last
 * ran its timers: their connections idled through the hold. undici closes a connection idle for
 * `IDLE_CONNECTION_MS` with a timer, which runs only once the thread is free again, and which it
 * sets only after the answer's last turn of the loop: a request sent at the end of a long hold (a
 * shrink's reckoning on a loaded machine), in the same turn, went out on a connection idle well
 * past the limit, which a NAT had forgotten (a reset; stress at 9a511f8, run 7) or a server had
 * closed (a write lost, never sent again). New pools serve from here; the old ones close once the
 * requests they carry are answered. A shorter hold keeps them: a connection is then reused idle
 * for at most one and a half times the limit.
 */
function retireHeldPools(): void {
  if (holdUnderWayMs() <= IDLE_CONNECTION_MS / 2) return;
  for (const pool of takePools()) {
    const closing: Promise<void> = pool
      .close()
      .catch(() => {})
      .finally(() => retiring.delete(closing));
    retiring.add(closing);
  }
}

export async function closeDispatcher(): Promise<void> {
  const current = takePools();
  unwatchPool?.();
  unwatchPool = null;
  await Promise.all([...current.map((d) => d.close()), ...retiring]);
}

/**
 * The innermost layer: sends the request with undici, within its deadline and body cap, and
 * builds its exchange. No complete response is a `TransportFailure` carrying the exchange.
 */
export function transport(): Send {
  return async (request) => {
    retireHeldPools();
    // One reading of the suite's clock starts the exchange, and another ends it: its answer time
    // (start plus duration) is then never before the answer came. Timed from a second reading
    // instead, a thread held between the two (a loaded machine) made the answer seem that much
    // earlier, and the target's clock, read from its Date against it, that much ahead: the pacer
    // then sent a window's first request too soon (an unplanned 429, a stress run at b709d45).
    const startedMs = Math.floor(suiteNow());
    const exchange = exchangeOf(request, startedMs);
    const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxBytes = request.maxBytes ?? UNCAPPED;
    let bytes = 0;
    let headersArrived = false;
    // The deadline counts the target's time, not this thread's own stalls (deadline.ts); undici's
    // own timers, which would count them, stand behind it at the most it can last.
    const due = deadline(timeoutMs);
    try {
      const res = await undiciRequest(request.url, {
        method: request.method as Dispatcher.HttpMethod,
        headers: { ...request.headers, ...simulatedTime() },
        ...(request.body !== undefined ? { body: request.body } : {}),
        dispatcher: dispatcher(timeoutMs, request.spec.connection),
        signal: due.signal,
        headersTimeout: MOST_TIMES * timeoutMs,
        bodyTimeout: MOST_TIMES * timeoutMs,
      });
      headersArrived = true;
      const chunks: Buffer[] = [];
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        if (bytes > maxBytes) {
          res.body.destroy();
          throw new BodyTooLarge(maxBytes);
        }
        chunks.push(chunk);
      }
      const headers = flattenHeaders(res.headers);
      const raw = bodyBytes(chunks, bytes, headers['content-encoding'], maxBytes);
      exchange.durationMs = Math.ceil(suiteNow() - startedMs);
      const lean = request.spec.listSkeleton;
      // A walk's page is not decoded whole unless someone reads `text`: the scan reads the bytes.
      let text = lean ? null : raw.toString('utf8');
      const parsed = strictly(raw, lean ? parseListPage(raw, lean.idField) : parseJson(text!));
      exchange.answeredBy = responderOf(res.statusCode);
      exchange.response = {
        status: res.statusCode,
        headers,
        body: loggedBody(raw, text),
        bytes,
        truncated: text === null ? raw.length > LOGGED_BODY_LIMIT : text.length > LOGGED_BODY_LIMIT,
        json: parsed.state,
        ...(parsed.problem ? { jsonProblem: parsed.problem } : {}),
      };
      return {
        status: res.statusCode,
        headers,
        get text() {
          return (text ??= raw.toString('utf8'));
        },
        raw,
        json: parsed.value,
        exchange,
      };
    } catch (error) {
      exchange.durationMs = Math.ceil(suiteNow() - startedMs);
      const [kind, message] = classify(error, timeoutMs, bytes, headersArrived);
      exchange.failure = { kind, message };
      throw new TransportFailure(kind, `${describeRequest(exchange)}: ${message}`, exchange, { responseStarted: headersArrived });
    } finally {
      due.settle();
    }
  };
}

/**
 * On the simulated clock, the run's time for a target in another process (`clock.ts`); added below
 * the exchange, which records what the run asked and not the harness's clock.
 */
function simulatedTime(): Record<string, string> {
  const clock = currentClock();
  return clock.shared ? { [SIMULATED_TIME_HEADER]: String(Math.round(clock.now())) } : {};
}

function exchangeOf(request: Outgoing, startedMs: number): Exchange {
  const { spec } = request;
  return {
    check: request.check,
    startedAt: new Date(startedMs).toISOString(),
    durationMs: 0,
    auth: request.auth,
    bucket: request.bucket,
    ...(request.pooled ? { pooled: true } : {}),
    request: { method: request.method, url: request.url, headers: { ...request.headers }, ...(request.body !== undefined ? { body: request.body } : {}) },
    ...(spec.expect429 ? { planned429: true } : {}),
    ...(spec.frontEndFragile || fragileAtHttpLevel(request.url) ? { frontEndFragile: true } : {}),
    ...(spec.pace === false ? { unpaced: true } : {}),
    ...(request.retryOf !== undefined ? { retryOf: request.retryOf } : {}),
    ...(request.retryCause !== undefined ? { retryCause: request.retryCause } : {}),
  };
}

class BodyTooLarge extends Error {
  constructor(readonly cap: number) {
    super(`response body too large: larger than ${cap} bytes (not read further)`);
  }
}

/**
 * The body's bytes, its chunks joined (no copy when it came in one) and released before the
 * caller parses it: a large page is not held three times (chunks, joined, text) at once.
 */
function bodyBytes(chunks: Buffer[], bytes: number, coding: string | undefined, maxBytes: number): Buffer {
  const joined = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, bytes);
  chunks.length = 0;
  return decode(joined, coding, maxBytes);
}

/** What the log keeps of a body: its first LOGGED_BODY_LIMIT characters, a copy that holds nothing else alive. */
function loggedBody(raw: Buffer, text: string | null): string {
  // No byte decodes to more than one UTF-16 unit, so these bytes give at most the limit.
  if (text === null) return raw.toString('utf8', 0, LOGGED_BODY_LIMIT);
  // A copy, not a slice: V8's slice would keep the whole (up to 40 MB) body alive in the log.
  return text.length > LOGGED_BODY_LIMIT ? Buffer.from(text.slice(0, LOGGED_BODY_LIMIT)).toString() : text;
}

/**
 * The body without its content coding (gzip, deflate, br), decoded up to `maxBytes`; a body that
 * does not decode is kept as it came, and then fails as a body that is not JSON.
 */
function decode(body: Buffer, coding: string | undefined, maxBytes: number): Buffer {
  const name = coding?.trim().toLowerCase();
  if (!name || name === 'identity' || body.length === 0) return body;
  const options = maxBytes < UNCAPPED ? { maxOutputLength: maxBytes } : {};
  try {
    if (name === 'gzip' || name === 'x-gzip') return gunzipSync(body, options);
    if (name === 'deflate') return inflateSync(body, options);
    if (name === 'br') return brotliDecompressSync(body, options);
  } catch {
    return body;
  }
  return body;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

type Parsed = { state: 'ok' | 'invalid' | 'empty'; value: unknown; problem?: string };

/**
 * A body that parsed, but only once decoded leniently (a bad byte read as U+FFFD), is not JSON
 * (RFC 8259 §8.1; GEN-1): its state says so, with the offset of the first bad byte. Its value is
 * kept, so that the clauses about what it says (an envelope, a type) still judge it; GEN-1, and
 * the checks that need JSON (`t.json`, the walks), go by the state.
 */
function strictly(raw: Buffer, parsed: Parsed): Parsed {
  if (parsed.state !== 'ok') return parsed;
  const problem = notUtf8(raw);
  return problem === null ? parsed : { ...parsed, state: 'invalid', problem };
}

/** A list page of a walk: its skeleton (`list-skeleton.ts`), or JSON.parse's word where the scan has none. */
function parseListPage(raw: Buffer, idField: string | null): Parsed {
  if (raw.length === 0) return { state: 'empty', value: undefined };
  const skeleton = listSkeleton(raw, idField);
  return skeleton !== undefined ? { state: 'ok', value: skeleton } : parseJson(raw.toString('utf8'));
}

function parseJson(text: string): Parsed {
  if (text.length === 0) return { state: 'empty', value: undefined };
  try {
    return { state: 'ok', value: JSON.parse(text) };
  } catch {
    return { state: 'invalid', value: undefined };
  }
}

function classify(error: unknown, timeoutMs: number, bytes: number, headersArrived: boolean): [TransportFailureKind, string] {
  if (error instanceof BodyTooLarge) return ['too_large', error.message];
  const err = error as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code ?? '';
  // No connection at all (a host gone from the network): nothing was sent, as with a refusal.
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return ['connect_timeout', `timeout: no connection within ${timeoutMs} ms`];
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || (code.startsWith('UND_ERR_') && code.includes('TIMEOUT'))) {
    // Which stage stalled tells a hung server from a stalled or dripping body.
    if (!headersArrived) return ['timeout', `timeout: no response within ${timeoutMs} ms`];
    return ['timeout', `timeout: headers arrived but no complete body within ${timeoutMs} ms (${bytes} bytes of body arrived)`];
  }
  if (code === 'ECONNREFUSED') return ['refused', 'connection refused'];
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return ['dns', `host not found (${code})`];
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED') {
    return ['reset', `connection reset: closed before the response was complete${bytes > 0 ? ` (after ${bytes} bytes of body)` : ''}`];
  }
  if (code.startsWith('ERR_TLS') || code.includes('CERT') || code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' || code === 'EPROTO') {
    return ['tls', `TLS failed (${code}: ${err.message ?? 'no detail'}); a private CA goes in NODE_EXTRA_CA_CERTS`];
  }
  return ['other', `${code || err.name || 'error'}: ${err.message ?? String(error)}`];
}
