import { RemoteBroker } from '../broker/remote.js';
import { simulatedClock, useClock } from '../clock.js';
import { HttpClient } from '../http/client.js';
import type { Exchange } from '../http/exchange.js';
import { Redactor } from '../secrets/redactor.js';
import type { RunContext } from './run-context.js';

/**
 * What one worker keeps for all its checks (a vitest fixture of worker scope, see `check.ts`):
 * one link to the run's broker, the clients it makes, and what the key lifecycle remembers across
 * files.
 * Suites never see it: they reach it through the context's helpers.
 */
export class WorkerState {
  readonly broker: RemoteBroker;
  /** An earlier key of the run failed to authenticate within the allowance: later ones are tried once. */
  freshKeysFail = false;
  /** Ids whose deletion this worker recorded: a deliberate second deletion is not recorded again. */
  readonly recordedDeletions = new Set<string>();

  constructor(readonly run: RunContext) {
    // The run's simulated clock, where it has one: the worker's waits and times are the main thread's.
    if (run.clock) useClock(simulatedClock(run.clock));
    this.broker = new RemoteBroker(run.broker);
  }

  /**
   * A client for work several checks share (`t.sharedHttp`: a key exhausted once for the run): its
   * exchanges name `check`, the one that does the work, and are no check's evidence. Named by the
   * caller, not by the async context it runs in: Node 20 pays for an AsyncLocalStorage on every
   * promise of the worker.
   */
  sharedClientFor(check: string): HttpClient {
    return this.#client(
      (exchange, body) => this.broker.record(exchange, body),
      () => check,
    );
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
