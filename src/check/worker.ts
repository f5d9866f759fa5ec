import { AsyncLocalStorage } from 'node:async_hooks';
import { RemoteBroker } from '../broker/remote.js';
import { HttpClient } from '../http/client.js';
import type { Exchange } from '../http/exchange.js';
import { Redactor } from '../secrets/redactor.js';
import type { RunContext } from './run-context.js';

/**
 * What one worker keeps for all its checks (a vitest fixture of worker scope, see `check.ts`):
 * one link to the run's broker, one client, and what the key lifecycle remembers across files.
 * Suites never see it: they reach it through the context's helpers.
 */
export class WorkerState {
  readonly broker: RemoteBroker;
  /** The worker's client, for work shared by several checks (`t.sharedHttp`). */
  readonly http: HttpClient;
  /** An earlier key of the run failed to authenticate within the allowance: later ones are tried once. */
  freshKeysFail = false;
  /** Ids whose deletion this worker recorded: a deliberate second deletion is not recorded again. */
  readonly recordedDeletions = new Set<string>();

  /**
   * The check each piece of work is done for, named on the exchanges of the shared client. It
   * follows the work across awaits, so while concurrent checks overlap (`CheckOptions.concurrent`)
   * each request still names its own check, and shared work (`t.once`) names the check that began it.
   */
  readonly #doing = new AsyncLocalStorage<string>();

  constructor(readonly run: RunContext) {
    this.broker = new RemoteBroker(run.broker);
    this.http = this.#client(
      (exchange, body) => this.broker.record(exchange, body),
      () => this.#doing.getStore(),
    );
  }

  /** Runs `body` as the work of `check`: what the shared client sends meanwhile names it. */
  runFor<T>(check: string, body: () => Promise<T>): Promise<T> {
    return this.#doing.run(check, body);
  }

  /** A client of one check: its every exchange, retries included, names the check and is also appended to `sink`. */
  clientFor(sink: Exchange[], check: string): HttpClient {
    return this.#client(
      async (exchange, body) => {
        sink.push(exchange);
        await this.broker.record(exchange, body);
      },
      () => check,
    );
  }

  /** Every secret the run knows: the configured keys and each key revealed so far, in any worker. */
  async knownSecrets(): Promise<Redactor> {
    const { run } = this;
    const redactor = new Redactor();
    redactor.add(run.keys.main, run.keyPrefix);
    redactor.add(run.keys.other, run.keyPrefix);
    for (const secret of await this.broker.secrets()) redactor.add(secret, run.keyPrefix);
    return redactor;
  }

  async redact(text: string): Promise<string> {
    return (await this.knownSecrets()).redact(text);
  }

  #client(record: (exchange: Exchange, body: Uint8Array) => Promise<void>, currentCheck: () => string | undefined): HttpClient {
    const { run } = this;
    return new HttpClient({
      baseUrl: run.baseUrl,
      keys: run.keys,
      extraHeaders: run.extraHeaders,
      timeoutMs: run.timeoutMs,
      hooks: { acquire: (bucket, anonymous) => this.broker.acquire(bucket, anonymous), acquireAny: (buckets) => this.broker.acquireAny(buckets), record },
      currentCheck,
      readOnly: run.readOnly,
      keyPool: run.keyPool,
    });
  }
}
