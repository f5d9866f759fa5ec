import type { Exchange } from './exchange.js';
import { compose, type Layer, type Send } from './layer.js';
import { currentClock } from '../clock.js';
import { DEFAULT_TIMEOUT_MS, limits } from './layers/limits.js';
import { keySpreading } from './layers/key-spreading.js';
import { overlapTracking } from './layers/overlap.js';
import { pacing } from './layers/pacing.js';
import { readOnlyGuard } from './layers/read-only.js';
import { recording } from './layers/recording.js';
import { retryUnplanned429 } from './layers/retry-429.js';
import { retryUnanswered } from './layers/retry-unanswered.js';
import { prepare, type Addressing, type HttpResponse, type RequestSpec } from './request.js';
import { transport } from './transport.js';

export { ReadOnlyRefusal, TransportFailure } from './failures.js';
export { bucketOf, bucketOfCredential, type Credential, type HttpResponse, type RequestSpec } from './request.js';
export { closeDispatcher, LOGGED_BODY_LIMIT } from './transport.js';

/** What the client reports to, and waits on: the run's broker (see `broker/`), or a pacer of its own. */
export interface ClientHooks {
  /** Resolves when the bucket's rate-limit budget allows one more request. */
  acquire(bucket: string, anonymous: boolean): Promise<void>;
  /** Adds a finished exchange to the run's log; `body` is the complete response body. */
  record(exchange: Exchange, body: Uint8Array): Promise<void>;
  /** Paces a request any of several keys may carry; answers the index of the one to use. Needed with a key pool. */
  acquireAny?(buckets: readonly string[]): Promise<number>;
}

export interface ClientOptions extends Addressing {
  /**
   * Total deadline of one request, headers and body included.
   * @default 10000
   */
  readonly timeoutMs?: number;
  readonly hooks: ClientHooks;
  /** Names the check making a request, for the log. */
  readonly currentCheck?: () => string | undefined;
  /** `--read-only`: the guard layer refuses what could change the target. @default false */
  readonly readOnly?: boolean;
  /** Keys of the main account the run created to spread its read-only work over (`--max-keys`). @default none */
  readonly keyPool?: readonly string[];
  /** Wait out an unplanned 429 and send again; a bounded teardown must not. @default true */
  readonly retry429?: boolean;
  /** Send again what the API never answered (refused, reset, a front end's 502/503/504); a bounded teardown must not. @default true */
  readonly retryUnanswered?: boolean;
}

/**
 * The one HTTP client of the suite (checks, preflight, the key deletion probe, `init`,
 * `cleanup`): a request is prepared, then passes through its layers, outermost first:
 *
 * read-only guard → unplanned-429 retry → retry of what the API never answered → key spreading →
 * pacing → recording → overlap tracking → deadline and body cap → undici.
 *
 * Both retries sit outside pacing and recording: every attempt is paced and is its own exchange.
 */
export class HttpClient {
  readonly #addressing: Addressing;
  readonly #currentCheck: () => string | undefined;
  readonly #send: Send;

  constructor(options: ClientOptions) {
    this.#addressing = { baseUrl: options.baseUrl, keys: options.keys, extraHeaders: options.extraHeaders };
    this.#currentCheck = options.currentCheck ?? (() => undefined);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const layers: Layer[] = [
      ...(options.readOnly ? [readOnlyGuard] : []),
      ...(options.retry429 === false ? [] : [retryUnplanned429()]),
      ...(options.retryUnanswered === false ? [] : [retryUnanswered()]),
      ...(options.keyPool?.length && options.hooks.acquireAny ? [keySpreading(options.keyPool, (buckets) => options.hooks.acquireAny!(buckets))] : []),
      pacing((bucket, anonymous) => options.hooks.acquire(bucket, anonymous)),
      recording((exchange, body) => options.hooks.record(exchange, body)),
      overlapTracking,
      limits(timeoutMs),
    ];
    this.#send = compose(layers, transport());
  }

  get baseUrl(): string {
    return this.#addressing.baseUrl;
  }

  send(spec: RequestSpec): Promise<HttpResponse> {
    // Begun from here, before its layers: on the simulated clock, no wait beside it moves the
    // clock past it on its way to the transport (src/clock.ts).
    const answered = currentClock().requestBegun();
    const sent = this.#send(prepare(spec, this.#addressing, this.#currentCheck()));
    sent.then(answered, answered);
    return sent;
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
}
