import { channel } from 'node:diagnostics_channel';
import { createdAt, failedCredential, fromApi, knownToFail, type Exchange } from '../http/exchange.js';
import { Redactor } from '../secrets/redactor.js';
import type { SecretShape } from '../secrets/chance.js';
import { RevealedSecrets } from '../secrets/revealed-secrets.js';
import { rateHeaders } from '../http/rate-headers.js';
import { answerTimes } from '../http/server-clock.js';
import { FAILED_CREDENTIALS_BUCKET, Pacer, type PacerOptions } from '../pacing/pacer.js';
import { Ledger, type LedgerEntry } from './ledger.js';
import { connectProbe } from './connect-probe.js';
import { OutageWatch } from './outage.js';
import { SUBMISSION_CREATION_PATH, SubmissionCap } from './submission-cap.js';

/** What `RECORDED` publishes: an exchange as the broker records it, and the run's redactor to name its path with. */
export interface RecordedExchange {
  readonly exchange: Exchange;
  readonly body: Uint8Array;
  readonly redact: (text: string) => string;
}

/**
 * Every exchange the broker records, published for a tool that watches a run from inside its
 * process (`npm run coverage`'s exchange tap, scripts/support/exchange-tap.mjs): a named channel
 * reaches its subscriber whichever copy of this module the run loaded (the CLI runs bundled), and
 * costs nothing where nobody subscribed.
 */
export const RECORDED = channel('conformance:exchange-recorded');

/**
 * The run's one shared state, living in the main process: the log of every exchange of every
 * worker, the pacing budgets, the secrets revealed during the run, and the ledger of what the
 * run created. Worker threads reach it over a BroadcastChannel (`channel.ts`).
 */
export class Broker {
  readonly pacer: Pacer;
  /** Every configured and revealed secret: everything written is redacted through it. */
  readonly redactor = new Redactor();
  /** Only secrets revealed by the target during the run (KEY-4 looks for these). */
  readonly #revealed: RevealedSecrets;
  readonly #log: Exchange[] = [];
  readonly ledger: Ledger;
  /** The submissions the run created and those claimed in flight, against `--max-submissions`. */
  readonly submissions = new SubmissionCap();
  readonly #keyPrefix: string | null;
  /** Who each pacing bucket speaks for (`main`, `created`…), learnt from the log, for progress lines. */
  readonly #bucketKinds = new Map<string, Exchange['auth']>();
  readonly #teardownBucket: string | null;
  /** Whether the target stopped answering; once it has, every wait for a window ends (`Pacer.stop`). */
  readonly outage = new OutageWatch();

  /**
   * @param teardownBucket the bucket of the key that deletes the run's keys: its pacing keeps back
   *   one request per key alive and one more, so that the teardown never waits for a window
   */
  constructor(options: { pacer: PacerOptions; keyPrefix: string | null; ledgerFile: string | null; teardownBucket?: string }) {
    const onWait = options.pacer.onWait;
    this.pacer = new Pacer({
      ...options.pacer,
      onWait: onWait && ((bucket, ms, what) => onWait(this.describeBucket(bucket), ms, what)),
      ...(options.teardownBucket
        ? { holdBack: (bucket: string) => (bucket === options.teardownBucket ? this.ledger.outstanding('api_key').length + 1 : 0) }
        : {}),
    });
    this.#keyPrefix = options.keyPrefix;
    this.#teardownBucket = options.teardownBucket ?? null;
    this.#revealed = new RevealedSecrets(options.keyPrefix);
    this.ledger = new Ledger(options.ledgerFile);
    // A target found gone ends every wait for a window: the run stops at once (run.ts).
    void this.outage.detected.then((outage) => this.pacer.stop(outage.line));
  }

  /**
   * Confirms a silence of the target at `baseUrl` with new connections, and probes it while the
   * run sends nothing (`OutageWatch.watchConnections`). Answers a stopper.
   */
  watchTarget(baseUrl: string): () => void {
    return this.outage.watchConnections(connectProbe(baseUrl));
  }

  acquire(bucket: string, anonymous: boolean): Promise<void> {
    return this.pacer.acquire(bucket, anonymous);
  }

  /** Paces a request that any of `buckets` may carry; answers the index of the one to use. */
  acquireAny(buckets: readonly string[]): Promise<number> {
    return this.pacer.acquireAny(buckets);
  }

  /** Sets aside `count` requests of the bucket's budget for unpaced requests (see `Pacer.reserve`). */
  reserve(bucket: string, anonymous: boolean, count: number): Promise<void> {
    return this.pacer.reserve(bucket, anonymous, count);
  }

  release(bucket: string, anonymous: boolean, count: number): void {
    this.pacer.release(bucket, anonymous, count);
  }

  /** Resolves once the bucket's window holds none of the run's requests (see `Pacer.untilFresh`). */
  untilFresh(bucket: string, anonymous: boolean): Promise<void> {
    return this.pacer.untilFresh(bucket, anonymous);
  }

  /** The pacer's waits going on now, each naming its budget in words (for the run's heartbeat). */
  waits(): { who: string; what: string; since: number; until: number }[] {
    return this.pacer.waits().map((w) => ({ who: this.describeBucket(w.bucket), what: w.what, since: w.since, until: w.until }));
  }

  /** A bucket in words, never a secret: `the main key`, `requests without a key`. */
  describeBucket(bucket: string): string {
    if (bucket === 'anonymous') return 'requests without a key';
    const kind = this.#bucketKinds.get(bucket);
    const words: Partial<Record<Exchange['auth'], string>> = { main: 'the main key', other: "the other account's key", created: 'a key the run created' };
    return (kind && words[kind]) ?? 'a key';
  }

  /** Adds an exchange; `body` is the complete response body, scanned here for revealed secrets. */
  record(exchange: Exchange, body: Uint8Array): number {
    if (RECORDED.hasSubscribers) RECORDED.publish({ exchange, body, redact: (text) => this.redactor.redact(text) } satisfies RecordedExchange);
    const seq = this.#log.length;
    exchange.seq = seq;
    if (!this.#bucketKinds.has(exchange.bucket)) this.#bucketKinds.set(exchange.bucket, exchange.auth);
    if (exchange.response) {
      const headerText = Object.values(exchange.response.headers).join('\n');
      const leaks = this.#revealed.leaksIn(body, headerText);
      if (leaks.length > 0) {
        exchange.leaks = leaks.map((m) => m.secret);
        exchange.leakRuns = leaks.map((m) => m.run);
      }
    }
    // A front end's answer says nothing of the API's budget: counted as spent, like a failure.
    if (exchange.response && fromApi(exchange)) {
      this.pacer.serverClock.observeExchange(exchange);
      const times = answerTimes(exchange);
      this.pacer.observe(exchange.bucket, exchange.auth === 'none', exchange.response.status, rateHeaders(exchange.response.headers), !exchange.unpaced, times);
      if (failedCredential(exchange)) this.pacer.observe(FAILED_CREDENTIALS_BUCKET, true, exchange.response.status, rateHeaders({}), false);
      // Paced where the target counts them (FAILED_CREDENTIAL_PACING): its answers say where that is.
      if (knownToFail(exchange.auth)) this.pacer.observeFailed(exchange.response.status, rateHeaders(exchange.response.headers), times);
    } else {
      this.pacer.observe(exchange.bucket, exchange.auth === 'none', null, rateHeaders({}), !exchange.unpaced);
    }
    if (createdAt(exchange, SUBMISSION_CREATION_PATH)) this.submissions.observe();
    this.#log.push(exchange);
    this.outage.observe(exchange);
    return seq;
  }

  /** A configured key: redacted everywhere, never looked for as a leak. */
  addConfiguredSecret(value: string | null): void {
    this.redactor.add(value, this.#keyPrefix);
    if (value) this.#revealed.addConfigured(value);
  }

  /** A key the target revealed during the run: redacted, and looked for in every later response. */
  addRevealedSecret(value: string): void {
    if (!this.#revealed.add(value)) return;
    this.redactor.add(value, this.#keyPrefix);
  }

  /** A value that may be a new key but never authenticated: redacted where it appears whole. */
  addCandidateSecret(value: string): void {
    this.redactor.addWhole(value);
  }

  /** Every secret the run knows, for worker-side redaction of one-line reasons. */
  secrets(): string[] {
    return this.#revealed.values();
  }

  /** Each revealed secret's shape, in the order of the indices `Exchange.leaks` names (KEY-4 weighs the runs by them). */
  revealedShapes(): SecretShape[] {
    return this.#revealed.shapes();
  }

  log(): readonly Exchange[] {
    return this.#log;
  }

  addLedgerEntry(entry: LedgerEntry): void {
    this.ledger.add(entry);
  }

  /**
   * Resolves once the key that deletes the run's keys still has, in its window, a request for each
   * key alive (a creation announced counts): a key is asked for only then. The hold-back keeps
   * later requests of that key back, but keys created beside each other while its window was
   * nearly spent would leave the teardown a request short, met by a 429.
   */
  async untilDeletable(): Promise<void> {
    if (this.#teardownBucket) await this.pacer.untilRoom(this.#teardownBucket);
  }

  claimSubmission(cap: number): boolean {
    return this.submissions.claim(cap);
  }

  settleSubmission(answered: boolean): void {
    this.submissions.settle(answered);
  }

  submissionRoom(cap: number): number {
    return this.submissions.room(cap);
  }
}
