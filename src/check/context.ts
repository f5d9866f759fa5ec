import fc from 'fast-check';
import { ledgerEntry, type LedgerEntry } from '../broker/ledger.js';
import { HttpClient, ReadOnlyRefusal, TransportFailure, type HttpResponse } from '../http/client.js';
import type { Exchange } from '../http/exchange.js';
import { leakingTexts, type SecretShape } from '../secrets/chance.js';
import type { Redactor } from '../secrets/redactor.js';
import type { RunContext } from './run-context.js';
import { CheckBudget } from './budget.js';
import { CheckKeys } from './keys.js';
import { CheckLists } from './lists.js';
import type { CheckJudging } from './judging.js';
import { CheckNotRun, Finding, type Attempt } from './outcome.js';
import type { Shared } from './shared.js';
import { CheckSubmissions } from './submissions.js';
import type { WorkerState } from './worker.js';

type Evidence = HttpResponse | Exchange;

export interface PropertyOptions {
  /** @default the run's property budget */
  readonly numRuns?: number;
}

/** The secrets of the run, as a check may use them: to look for leaks, never to print. */
export interface CheckSecrets {
  /** Records a secret the target revealed, so that it is redacted and looked for everywhere. */
  reveal(value: string): Promise<void>;
  /** Every key revealed so far in the run, in any worker. */
  revealed(): Promise<string[]>;
  /** Every secret the run knows (configured and revealed), to test a text for leaks. */
  known(): Promise<Redactor>;
  /**
   * Of `texts`, one check's evidence read together, those that hold a part of a secret the run
   * knows, by index; none where chance alone explains what they hold (`secrets/chance.ts`).
   */
  leaking(texts: readonly string[]): Promise<number[]>;
  /** The shape of each revealed secret, in the order `Exchange.leaks` names them. */
  revealedShapes(): Promise<SecretShape[]>;
}

/** The handle a check body works with: `check(id, title, async (t) => …)`. */
export class CheckContext implements CheckJudging {
  /** Exchanges this check made, in order: the default evidence of a finding. */
  readonly exchanges: Exchange[] = [];
  /** Of those, the exchanges of its properties' generated cases. */
  readonly propertyExchanges: Exchange[] = [];
  /** Of those, the exchanges of the sequences the explorer drew (`exploring`): they grow with `--explore`. */
  readonly exploredExchanges: Exchange[] = [];
  /** Of `exchanges`, those sent only on a key pool (`onPool`). */
  readonly pooledExchanges: Exchange[] = [];
  /** The sequences of operations the check explored, in order, for the report of a passing run too (`noteExplored`). */
  explored: readonly string[] = [];
  /** The check's client: its exchanges are the check's evidence. */
  readonly http: HttpClient;
  /** The keys the check creates, lists, uses and deletes. */
  readonly keys: CheckKeys;
  /** The collections of the target. */
  readonly lists: CheckLists;
  /** Rate-limit budgets, by credential. */
  readonly budget: CheckBudget;
  /** The run's cap on created submissions, and batches of cases that keep to it. */
  readonly submissions: CheckSubmissions;
  readonly secrets: CheckSecrets;
  readonly #state: WorkerState;
  readonly #suite: Shared;
  readonly #wholeRun: Shared;
  #sharedHttp: HttpClient | null = null;

  constructor(
    readonly run: RunContext,
    state: WorkerState,
    shared: { readonly suite: Shared; readonly run: Shared },
    readonly name: string,
  ) {
    this.#state = state;
    this.#suite = shared.suite;
    this.#wholeRun = shared.run;
    this.http = state.clientFor(this.exchanges, name);
    this.keys = new CheckKeys(this, state);
    this.lists = new CheckLists(this);
    this.budget = new CheckBudget(run, state);
    this.submissions = new CheckSubmissions(run, state, this);
    this.secrets = {
      reveal: (value) => state.broker.addRevealedSecret(value),
      revealed: () => state.broker.secrets(),
      known: () => state.knownSecrets(),
      leaking: async (texts) => leakingTexts(await state.knownSecrets(), texts),
      revealedShapes: () => state.broker.revealedShapes(),
    };
  }

  get profile() {
    return this.run.profile;
  }

  /** A client for work several checks share (begun by this one, which its exchanges name): they are no one check's evidence. */
  get sharedHttp(): HttpClient {
    this.#sharedHttp ??= this.#state.sharedClientFor(this.name);
    return this.#sharedHttp;
  }

  /**
   * The value `make` produces, made once per suite and shared by its checks (probes that
   * several clauses judge, a walk, an exhausted key).
   */
  once<T>(name: string, make: () => T): T {
    return this.#suite.once(name, make);
  }

  /**
   * The same, made once for the whole run and shared by the checks of every suite: what one phase
   * begins and a later one awaits (a key exhausted beside KEY, its Retry-After awaited with RATE-7).
   */
  onceForRun<T>(name: string, make: () => T): T {
    return this.#wholeRun.once(name, make);
  }

  /** Every exchange of the run so far, in every worker (the run-wide judges read it). */
  log(): Promise<readonly Exchange[]> {
    return this.#state.broker.log();
  }

  /** Records a resource the check created on the target, so that the report and `cleanup` know of it. */
  async created(kind: LedgerEntry['kind'], id: string, name?: string): Promise<void> {
    await this.#state.broker.addLedgerEntry(ledgerEntry(this.run, { event: 'created', kind, id, name }));
  }

  /** The target does not conform; `evidence` proves it (default: the last exchange). */
  fail(reason: string, ...evidence: Evidence[]): never {
    throw new Finding(reason, evidence.map(toExchange));
  }

  /**
   * The target does not conform, shown by a generated sequence (the explorer's): the report gives
   * the seed and path that replay it (`--seed`) and the sequence, shrunk, beside the evidence.
   */
  failReplayable(
    reason: string,
    replay: { readonly seed: number; readonly path?: string | undefined; readonly counterexample: string },
    ...evidence: Evidence[]
  ): never {
    throw new Finding(reason, evidence.map(toExchange), replay);
  }

  /**
   * Runs the explorer's drawn sequences: their requests are the share `--explore` sets, which the
   * request estimates scale apart from the cover's (`exploreRequests`).
   */
  exploring<T>(draw: () => Promise<T>): Promise<T> {
    return this.#counted(this.exploredExchanges, draw);
  }

  /**
   * Sends what a run sends only where it spreads its work over a key pool (`t.run.keyPool`): where
   * the run keeps to one key, nothing. The request estimates count these requests apart
   * (`pooledRequests`), so that they never make a pool of their own: a narrow selection creates no
   * key for them, and a run that creates a pool anyway carries them on it.
   */
  async onPool(send: () => Promise<void>): Promise<void> {
    if (this.run.keyPool.length > 0) await this.#counted(this.pooledExchanges, send);
  }

  /** Runs `body`, and counts the exchanges it made in `share` too, however it ends: a share the estimates scale apart. */
  async #counted<T>(share: Exchange[], body: () => Promise<T>): Promise<T> {
    const from = this.exchanges.length;
    try {
      return await body();
    } finally {
      share.push(...this.exchanges.slice(from));
    }
  }

  /** The sequences the check explored, one line each: every report lists them with the run's seed, whatever the verdict. */
  noteExplored(sequences: readonly string[]): void {
    this.explored = [...sequences];
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

  /** Runs `body` and says how it ended: a value, a finding, or a check that cannot run. */
  async attempt<T>(body: () => Promise<T>): Promise<Attempt<T>> {
    try {
      return { outcome: 'done', value: await body() };
    } catch (error) {
      const rethrow = (): never => {
        throw error;
      };
      // A target that gave no complete answer failed: a finding, as `check()` reports it. One
      // that never answered at all (refused, a front end's 503) is no finding: it goes on up.
      if (error instanceof TransportFailure && error.unanswered) throw error;
      if (error instanceof Finding || error instanceof TransportFailure)
        return { outcome: 'finding', reason: error instanceof Finding ? error.reason : error.message, rethrow };
      if (error instanceof CheckNotRun || error instanceof ReadOnlyRefusal)
        return { outcome: 'not_run', reason: error instanceof CheckNotRun ? error.reason : 'read-only', rethrow };
      throw error;
    }
  }

  /** The body as JSON, or a finding that it is not. */
  json(res: HttpResponse): unknown {
    if (res.exchange.response?.json !== 'ok') {
      const type = res.headers['content-type'] ?? 'no Content-Type';
      const problem = res.exchange.response?.jsonProblem;
      this.fail(`the response body is not JSON (${type}): ${problem ?? snippet(res.text)}`, res);
    }
    return res.json;
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
    const from = this.exchanges.length;
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
    this.propertyExchanges.push(...this.exchanges.slice(from));
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
