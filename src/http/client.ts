import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import type { AuthKind, Exchange, TransportFailureKind } from './exchange.js';
import { describeRequest } from './exchange.js';
import { retryDelayMs } from './retry.js';
import { sleep } from '../sleep.js';
import { isSafeMethod } from './methods.js';

/** What the client reports to, and waits on: the run's broker (see `broker/`). */
export interface ClientHooks {
  /** Resolves when the bucket's rate-limit budget allows one more request. */
  acquire(bucket: string, anonymous: boolean): Promise<void>;
  /** Adds a finished exchange to the run's log; `body` is the complete response text. */
  record(exchange: Exchange, body: string): Promise<void>;
}

export interface ClientOptions {
  readonly baseUrl: string;
  readonly keys: { readonly main: string | null; readonly other: string | null };
  /** Gateway headers sent on every request. */
  readonly extraHeaders: readonly (readonly [string, string])[];
  /**
   * Total deadline of one request, headers and body included.
   * @default 10000
   */
  readonly timeoutMs?: number;
  readonly hooks: ClientHooks;
  /** Names the check making a request, for the log. */
  readonly currentCheck?: () => string | undefined;
  /**
   * `--read-only`: refuse, before sending, any request that could change the target (a method
   * other than GET, HEAD or OPTIONS) or that means to exhaust its rate limit (`expect429`).
   * The guard holds whatever a check declares. @default false
   */
  readonly readOnly?: boolean;
}

export type Credential =
  | 'main'
  | 'other'
  | 'none'
  | { readonly key: string; readonly kind: 'created' | 'invalid' | 'candidate' }
  /** A whole Authorization header value, for malformed-header probes. */
  | { readonly header: string };

export interface RequestSpec {
  readonly method?: string;
  /** Path under the base URL, starting with `/`. */
  readonly path: string;
  /** Encoded with encodeURIComponent; repeated names allowed as pairs. */
  readonly query?: Readonly<Record<string, string | number | undefined>> | readonly (readonly [string, string])[];
  /** Sent exactly as given, for adversarial spellings (`page=%20&page=2`). */
  readonly rawQuery?: string;
  /** @default 'main' */
  readonly auth?: Credential;
  /** Serialised as JSON with `Content-Type: application/json`. */
  readonly body?: unknown;
  /** Sent as it is, for malformed bodies. */
  readonly rawBody?: string;
  /** Overrides the Content-Type of a body; null sends none. */
  readonly contentType?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
  /** Malformed at the HTTP level, so often answered by a front end (see `Exchange.frontEndFragile`). @default false */
  readonly frontEndFragile?: boolean;
  /** @default true: wait for the rate-limit budget first */
  readonly pace?: boolean;
  /** The check means to provoke 429s: they are not waited out and retried. @default false */
  readonly expect429?: boolean;
  /** Cap on the response body; by default it scales with the `limit` asked for. */
  readonly maxBytes?: number;
  readonly timeoutMs?: number;
}

export interface HttpResponse {
  readonly status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** The parsed body; undefined when it is not JSON (see `exchange.response.json`). */
  readonly json: unknown;
  readonly exchange: Exchange;
}

/** A request `--read-only` does not send; the check that made it is left out (not_applicable 'read-only'). */
export class ReadOnlyRefusal extends Error {
  override readonly name = 'ReadOnlyRefusal';
}

/** The request got no complete response. The target's fault, so a failed check, never a crash. */
export class TransportFailure extends Error {
  override readonly name = 'TransportFailure';
  constructor(
    readonly kind: TransportFailureKind,
    message: string,
    readonly exchange: Exchange,
  ) {
    super(message);
  }
}

const BASE_BODY_CAP = 4 * 1024 * 1024;
const BODY_CAP_PER_ITEM = 4 * 1024;
/** Kept of a body in the log; complete bodies only pass through the broker's leak scan. */
export const LOGGED_BODY_LIMIT = 64 * 1024;
const UNPLANNED_429_RETRIES = 4;

let sharedDispatcher: Dispatcher | null = null;

/**
 * One keep-alive pool per process; honours HTTP(S)_PROXY and NO_PROXY when set. The connect
 * timeout follows the request deadline: undici does not abort a connection (a TLS handshake
 * that never completes) on the request's signal, so without it a stalled handshake took 10 s
 * whatever `--timeout` said.
 */
function dispatcher(deadlineMs: number): Dispatcher {
  if (!sharedDispatcher) {
    const options = { connections: 16, keepAliveTimeout: 10_000, connect: { timeout: Math.min(deadlineMs, 10_000) } };
    const proxied = ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy'].some((name) => process.env[name]);
    sharedDispatcher = proxied ? new EnvHttpProxyAgent(options) : new Agent(options);
  }
  return sharedDispatcher;
}

export async function closeDispatcher(): Promise<void> {
  const current = sharedDispatcher;
  sharedDispatcher = null;
  await current?.close();
}

export function bucketOf(authorization: string | null): string {
  if (authorization === null) return 'anonymous';
  return `key:${createHash('sha256').update(authorization).digest('hex').slice(0, 12)}`;
}

export class HttpClient {
  readonly #options: ClientOptions;
  constructor(options: ClientOptions) {
    this.#options = options;
  }

  get baseUrl(): string {
    return this.#options.baseUrl;
  }

  async send(spec: RequestSpec): Promise<HttpResponse> {
    const method = (spec.method ?? 'GET').toUpperCase();
    if (this.#options.readOnly && (!isSafeMethod(method) || spec.expect429)) {
      throw new ReadOnlyRefusal(`${method} ${spec.path}${spec.expect429 ? ' meant to exhaust the rate limit' : ''} is not sent with --read-only`);
    }
    let retryOf: number | undefined;
    for (let attempt = 0; ; attempt++) {
      const response = await this.#sendOnce(spec, retryOf);
      const unplanned = response.status === 429 && !spec.expect429;
      if (!unplanned || attempt >= UNPLANNED_429_RETRIES) return response;
      // An unplanned 429 is the environment (another client on the key), not a finding:
      // wait what the target says, then back off exponentially (API document, Limits).
      retryOf = response.exchange.seq;
      await sleep(retryDelayMs(response.headers['retry-after'], attempt));
    }
  }

  get(path: string, spec: Omit<RequestSpec, 'path' | 'method'> = {}): Promise<HttpResponse> {
    return this.send({ ...spec, path, method: 'GET' });
  }

  post(path: string, body: unknown, spec: Omit<RequestSpec, 'path' | 'method' | 'body'> = {}): Promise<HttpResponse> {
    return this.send({ ...spec, path, method: 'POST', body });
  }

  delete(path: string, spec: Omit<RequestSpec, 'path' | 'method'> = {}): Promise<HttpResponse> {
    return this.send({ ...spec, path, method: 'DELETE' });
  }

  async #sendOnce(spec: RequestSpec, retryOf: number | undefined): Promise<HttpResponse> {
    const method = spec.method ?? 'GET';
    const url = this.#url(spec);
    const { authorization, kind } = this.#authorization(spec.auth ?? 'main');
    // Identity asked for, since an absent Accept-Encoding allows any coding (RFC 9110, 12.5.3);
    // a coded body is decoded all the same (`decode`).
    const headers: Record<string, string> = { accept: 'application/json', 'accept-encoding': 'identity' };
    for (const [name, value] of this.#options.extraHeaders) headers[name.toLowerCase()] = value;
    for (const [name, value] of Object.entries(spec.headers ?? {})) headers[name.toLowerCase()] = value;
    if (authorization !== null) headers.authorization = authorization;
    let body: string | undefined;
    if (spec.rawBody !== undefined) body = spec.rawBody;
    else if (spec.body !== undefined) body = JSON.stringify(spec.body);
    if (body !== undefined && spec.contentType !== null) headers['content-type'] = spec.contentType ?? 'application/json';

    const bucket = bucketOf(authorization);
    if (spec.pace !== false) await this.#options.hooks.acquire(bucket, authorization === null);

    const exchange: Exchange = {
      check: this.#options.currentCheck?.(),
      startedAt: new Date().toISOString(),
      durationMs: 0,
      auth: kind,
      bucket,
      request: { method, url, headers, ...(body !== undefined ? { body } : {}) },
      ...(spec.expect429 ? { planned429: true } : {}),
      ...(spec.frontEndFragile ? { frontEndFragile: true } : {}),
      ...(spec.pace === false ? { unpaced: true } : {}),
      ...(retryOf !== undefined ? { retryOf } : {}),
    };
    markOverlaps(exchange);
    const started = performance.now();
    const timeoutMs = spec.timeoutMs ?? this.#options.timeoutMs ?? 10_000;
    const maxBytes = spec.maxBytes ?? bodyCap(spec);
    let text = '';
    let bytes = 0;
    let headersArrived = false;
    try {
      const res = await request(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        dispatcher: dispatcher(this.#options.timeoutMs ?? 10_000),
        signal: AbortSignal.timeout(timeoutMs),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
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
      const responseHeaders = flattenHeaders(res.headers);
      text = decode(Buffer.concat(chunks), responseHeaders['content-encoding'], maxBytes).toString('utf8');
      exchange.durationMs = Math.round(performance.now() - started);
      const parsed = parseJson(text);
      exchange.response = {
        status: res.statusCode,
        headers: responseHeaders,
        // A copy, not a slice: V8's slice would keep the whole (up to 40 MB) body alive in the log.
        body: text.length > LOGGED_BODY_LIMIT ? Buffer.from(text.slice(0, LOGGED_BODY_LIMIT)).toString() : text,
        bytes,
        truncated: text.length > LOGGED_BODY_LIMIT,
        json: parsed.state,
      };
      inFlight.delete(exchange);
      await this.#options.hooks.record(exchange, text);
      return { status: res.statusCode, headers: responseHeaders, text, json: parsed.value, exchange };
    } catch (error) {
      inFlight.delete(exchange);
      exchange.durationMs = Math.round(performance.now() - started);
      const [failureKind, message] = classify(error, timeoutMs, bytes, headersArrived);
      exchange.failure = { kind: failureKind, message };
      await this.#options.hooks.record(exchange, '');
      throw new TransportFailure(failureKind, `${describeRequest(exchange)}: ${message}`, exchange);
    }
  }

  #url(spec: RequestSpec): string {
    const base = this.#options.baseUrl.replace(/\/+$/, '');
    let query = spec.rawQuery ?? '';
    if (spec.query) {
      const pairs = Array.isArray(spec.query)
        ? (spec.query as readonly (readonly [string, string])[])
        : Object.entries(spec.query as Record<string, string | number | undefined>)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => [k, String(v)] as const);
      const encoded = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
      query = query ? `${query}&${encoded}` : encoded;
    }
    return `${base}${spec.path}${query ? `?${query}` : ''}`;
  }

  #authorization(credential: Credential): { authorization: string | null; kind: AuthKind } {
    if (credential === 'none') return { authorization: null, kind: 'none' };
    if (credential === 'main' || credential === 'other') {
      const key = this.#options.keys[credential];
      if (!key) throw new Error(`no ${credential} key configured`);
      return { authorization: `Bearer ${key}`, kind: credential };
    }
    if ('header' in credential) return { authorization: credential.header, kind: 'malformed' };
    return { authorization: `Bearer ${credential.key}`, kind: credential.kind };
  }
}

/** Requests of this process (every client of a worker) now on the wire. */
const inFlight = new Set<Exchange>();

/** Marks the new exchange and every one still in flight as overlapping each other. */
function markOverlaps(exchange: Exchange): void {
  for (const other of inFlight) {
    other.overlapped = true;
    exchange.overlapped = true;
  }
  inFlight.add(exchange);
}

class BodyTooLarge extends Error {
  constructor(readonly cap: number) {
    super(`response body too large: larger than ${cap} bytes (not read further)`);
  }
}

/** Caps the body by the page size asked for: a 10000-item page of real records is large. */
function bodyCap(spec: RequestSpec): number {
  const raw = spec.query && !Array.isArray(spec.query) ? (spec.query as Record<string, unknown>).limit : undefined;
  const limit = Number(raw);
  const items = Number.isInteger(limit) && limit > 0 ? Math.min(limit, 10_000) : 100;
  return BASE_BODY_CAP + items * BODY_CAP_PER_ITEM;
}

/**
 * The body without its content coding (gzip, deflate, br), decoded up to `maxBytes`; a body that
 * does not decode is kept as it came, and then fails as a body that is not JSON.
 */
function decode(body: Buffer, coding: string | undefined, maxBytes: number): Buffer {
  const name = coding?.trim().toLowerCase();
  if (!name || name === 'identity' || body.length === 0) return body;
  const options = { maxOutputLength: maxBytes };
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

function parseJson(text: string): { state: 'ok' | 'invalid' | 'empty'; value: unknown } {
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
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || code.startsWith('UND_ERR_') && code.includes('TIMEOUT')) {
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
