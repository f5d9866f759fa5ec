import fc from 'fast-check';
import { RemoteBroker } from '../broker/remote.js';
import { HttpClient, ReadOnlyRefusal, TransportFailure, type ClientHooks, type HttpResponse } from '../http/client.js';
import type { Exchange } from '../http/exchange.js';
import { Redactor } from '../http/redactor.js';
import type { RunContext } from '../run/context.js';
import { CheckNotRun, Finding } from './outcome.js';

/** What one worker keeps for all its checks: one broker link, one client. */
export interface WorkerRuntime {
  readonly broker: RemoteBroker;
  /** The worker's client, for requests that belong to no single check. */
  readonly http: HttpClient;
  /** A client whose every exchange, retries included, is also appended to `sink`. */
  clientFor(sink: Exchange[]): HttpClient;
  /** The check currently running in this worker; tests of a file run one at a time. */
  current: string | undefined;
  /** Every secret the run knows: the configured keys and each key revealed so far, in any worker. */
  knownSecrets(): Promise<Redactor>;
  /** Redacts every secret the run knows. */
  redact(text: string): Promise<string>;
}

let runtime: WorkerRuntime | null = null;

export function workerRuntime(run: RunContext): WorkerRuntime {
  if (runtime) return runtime;
  const broker = new RemoteBroker(run.broker);
  const client = (hooks: ClientHooks) =>
    new HttpClient({
      baseUrl: run.baseUrl,
      keys: run.keys,
      extraHeaders: run.extraHeaders,
      timeoutMs: run.timeoutMs,
      hooks,
      currentCheck: () => state.current,
      readOnly: run.readOnly,
    });
  const state: WorkerRuntime = {
    broker,
    current: undefined,
    http: client(broker),
    clientFor: (sink) =>
      client({
        acquire: (bucket, anonymous) => broker.acquire(bucket, anonymous),
        record: async (exchange, body) => {
          sink.push(exchange);
          await broker.record(exchange, body);
        },
      }),
    async knownSecrets() {
      const redactor = new Redactor();
      redactor.add(run.keys.main, run.keyPrefix);
      redactor.add(run.keys.other, run.keyPrefix);
      for (const secret of await broker.secrets()) redactor.add(secret, run.keyPrefix);
      return redactor;
    },
    async redact(text) {
      return (await state.knownSecrets()).redact(text);
    },
  };
  runtime = state;
  return state;
}

type Evidence = HttpResponse | Exchange;

export interface PropertyOptions {
  /** @default the run's property budget */
  readonly numRuns?: number;
}

/** The handle a check body works with. */
export class CheckContext {
  /** Exchanges this check made, in order: the default evidence of a finding. */
  readonly exchanges: Exchange[] = [];
  readonly http: HttpClient;

  constructor(
    readonly run: RunContext,
    readonly runtime: WorkerRuntime,
    readonly name: string,
  ) {
    this.http = runtime.clientFor(this.exchanges);
  }

  get profile() {
    return this.run.profile;
  }

  /** The target does not conform; `evidence` proves it (default: the last exchange). */
  fail(reason: string, ...evidence: Evidence[]): never {
    throw new Finding(reason, evidence.map(toExchange));
  }

  ensure(condition: unknown, reason: string | (() => string), ...evidence: Evidence[]): void {
    if (!condition) this.fail(typeof reason === 'function' ? reason() : reason, ...evidence);
  }

  /** The check could not be exercised on this target (no data, say). */
  skip(reason: string): never {
    throw new CheckNotRun('skipped', reason);
  }

  notApplicable(reason: string): never {
    throw new CheckNotRun('not_applicable', reason);
  }

  /** The body as JSON, or a finding that it is not. */
  json(res: HttpResponse): unknown {
    if (res.exchange.response?.json !== 'ok') {
      const type = res.headers['content-type'] ?? 'no Content-Type';
      this.fail(`the response body is not JSON (${type}): ${snippet(res.text)}`, res);
    }
    return res.json;
  }

  /** Records a secret the target revealed, so that it is redacted and looked for everywhere. */
  async revealSecret(value: string): Promise<void> {
    await this.runtime.broker.addRevealedSecret(value);
  }

  /**
   * Runs a property with fast-check; the predicate throws a finding for a counterexample. A
   * failure reports the shrunk input with the seed and path that replay it.
   */
  async property<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, options: PropertyOptions = {}): Promise<void> {
    // A target that stops answering must not cost a deadline per generated or shrunk input:
    // after the first transport failure (or read-only refusal) every further case fails at
    // once, without a request.
    let transport: TransportFailure | ReadOnlyRefusal | null = null;
    const details = await fc.check(
      fc.asyncProperty(arbitrary, async (value) => {
        if (transport) throw transport;
        try {
          await predicate(value);
        } catch (error) {
          if (error instanceof TransportFailure || error instanceof ReadOnlyRefusal) transport = error;
          throw error;
        }
      }),
      { seed: this.run.seed, numRuns: options.numRuns ?? this.run.propertyRuns },
    );
    if (transport) throw transport;
    if (!details.failed) return;
    const cause = details.errorInstance;
    const counterexample = fc.stringify(details.counterexample?.[0]);
    const repro = { seed: details.seed, path: details.counterexamplePath ?? undefined, counterexample };
    if (cause instanceof Finding) {
      throw new Finding(`${cause.reason} (input ${counterexample})`, cause.evidence, { ...cause.repro, ...repro });
    }
    if (cause instanceof CheckNotRun) throw cause;
    throw cause instanceof Error ? cause : new Error(String(cause));
  }
}

function toExchange(evidence: Evidence): Exchange {
  return 'exchange' in evidence ? evidence.exchange : evidence;
}

/** The first characters of a body, on one line. */
export function snippet(text: string, length = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length === 0) return '(empty body)';
  return JSON.stringify(flat.length > length ? `${flat.slice(0, length)}…` : flat);
}
