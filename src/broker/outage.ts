import { endedAt, fromApi, type Exchange, type TransportFailureKind } from '../http/exchange.js';
import { suiteNow } from '../clock.js';

/** Exchanges in a row without an answer of the API that mean the target is gone… */
const IN_A_ROW = 6;
/** …over at least this long: a restart of a second is ridden out by the retries, not called a death. */
const OVER_MS = 2000;

/** New connections tried, `PROBE_GAP_MS` apart, that must all fail to confirm the target gone: about as long as a request's retries. */
const PROBES = 4;
const PROBE_GAP_MS = 1000;
/** While the run sends nothing for this long, a probe looks whether the target is still there. */
const IDLE_PROBE_MS = 2000;

/** How each kind of silence reads in the one line. */
const WORDS: Record<TransportFailureKind, string> = {
  refused: 'refused',
  reset: 'reset',
  timeout: 'timed out',
  connect_timeout: 'not connected in time',
  dns: 'not resolved',
  tls: 'failed in TLS',
  'front-end': 'answered by a front end',
  too_large: 'too large',
  other: 'failed',
};

/** The target stopped answering: when, and what the requests met. */
export interface Outage {
  /** When the first request of the streak was sent. */
  readonly since: Date;
  /** `the target stopped answering at 12:03:04 UTC: 6 requests refused in a row` */
  readonly line: string;
}

/**
 * Watches every exchange of the run (the broker's log) for a target that stopped answering: a
 * streak of requests the API did not answer (refused, reset, not connected, a front end's 502/503/504)
 * after it had answered earlier in the run (as Schemathesis' outage check does: a target that
 * never answered is the preflight's to say). The run then stops starting checks and cuts every
 * wait (`run.ts`), tears down within its bound and ends `inconclusive` within seconds, instead of
 * failing one check after another against a dead host.
 */
export class OutageWatch {
  #answered = false;
  #streak: Exchange[] = [];
  #outage: Outage | null = null;
  #resolve!: (outage: Outage) => void;
  #probe: (() => Promise<boolean>) | null = null;
  #confirmation: Promise<void> | null = null;
  #lastSeenAt = suiteNow();
  /** Resolves once, when the target is found gone. */
  readonly detected = new Promise<Outage>((resolve) => (this.#resolve = resolve));

  /**
   * Confirms a silence with new connections (`connect-probe.ts`): a target that refuses them all
   * is gone, however few requests met it. While the run sends nothing for a few seconds (a wait for
   * a rate-limit window, or a check's own wait for a Retry-After, which the pacer does not see), the
   * target is probed, so that a death during a wait ends the run too. Answers a function that stops
   * the probing.
   */
  watchConnections(probe: (() => Promise<boolean>) | null): () => void {
    this.#probe = probe;
    if (!probe) return () => undefined;
    const timer = setInterval(() => {
      if (this.#answered && suiteNow() - this.#lastSeenAt >= IDLE_PROBE_MS) void this.#confirm();
    }, IDLE_PROBE_MS).unref();
    void this.detected.then(() => clearInterval(timer));
    return () => clearInterval(timer);
  }

  get outage(): Outage | null {
    return this.#outage;
  }

  /**
   * At the end of the checks: the outage, confirmed now if the run's last requests went unanswered
   * (a target that died near the end, before a streak or the probes could say so), or null. The
   * report then says the target stopped answering, not only that clauses went unjudged.
   */
  async settle(): Promise<Outage | null> {
    if (this.#outage || !this.#answered || this.#streak.length === 0) return this.#outage;
    await this.#confirm();
    return this.#outage;
  }

  /** Takes one exchange of the log, in the order they were recorded; answers the outage when this one reveals it. */
  observe(exchange: Exchange): Outage | null {
    if (this.#outage) return null;
    this.#lastSeenAt = suiteNow();
    if (exchange.response !== undefined && fromApi(exchange)) {
      this.#answered = true;
      this.#streak = [];
      return null;
    }
    const kind = silenceOf(exchange);
    // A body too large is an answer of the API (judged); so is a malformed request's odd answer.
    if (kind === null) return null;
    this.#streak.push(exchange);
    if (!this.#answered) return null;
    if (kind !== 'front-end') void this.#confirm();
    if (this.#streak.length < IN_A_ROW) return null;
    const first = Date.parse(this.#streak[0]!.startedAt);
    const last = endedAt(exchange);
    if (last - first < OVER_MS) return null;
    return this.#declare(first, what(this.#streak));
  }

  #declare(since: number, what: string): Outage {
    this.#outage = { since: new Date(since), line: `the target stopped answering at ${clock(since)}: ${what}` };
    this.#resolve(this.#outage);
    return this.#outage;
  }

  /**
   * New connections, a second apart: all refused, the target is gone; one made, it is not (yet).
   * One confirmation at a time; a caller that asks during one waits for it (`settle`).
   */
  #confirm(): Promise<void> {
    if (!this.#probe || this.#outage) return Promise.resolve();
    this.#confirmation ??= this.#probeAll(this.#probe).finally(() => (this.#confirmation = null));
    return this.#confirmation;
  }

  async #probeAll(probe: () => Promise<boolean>): Promise<void> {
    const startedAt = suiteNow();
    for (let n = 0; n < PROBES; n++) {
      if (n > 0) await new Promise((resolve) => setTimeout(resolve, PROBE_GAP_MS));
      if (this.#outage || (await probe())) return;
    }
    if (this.#outage) return;
    const streak = this.#streak.length > 0 ? `${what(this.#streak)}, then ` : '';
    const since = this.#streak.length > 0 ? Date.parse(this.#streak[0]!.startedAt) : startedAt;
    this.#declare(since, `${streak}${PROBES} new connections failed in a row`);
  }
}

/**
 * What the exchange met when it is silence: nothing connected, a connection cut before any
 * response, a front end answering. A target that takes requests and holds them past their
 * deadline, or sends a body cut short or too large, is still there, and judged for it.
 */
function silenceOf(exchange: Exchange): TransportFailureKind | null {
  if (exchange.frontEndFragile) return null;
  if (exchange.response !== undefined) return 'front-end';
  const failure = exchange.failure;
  if (!failure || !SILENT.has(failure.kind)) return null;
  return failure.kind === 'reset' && failure.message.includes('bytes of body') ? null : failure.kind;
}

const SILENT: ReadonlySet<TransportFailureKind> = new Set(['refused', 'connect_timeout', 'reset', 'dns', 'tls']);

/** `6 requests refused in a row`, or `6 requests in a row got no answer of the API (4 refused, 2 reset)`. */
function what(streak: readonly Exchange[]): string {
  const kinds = new Map<string, number>();
  for (const e of streak) {
    const words = WORDS[silenceOf(e)!];
    kinds.set(words, (kinds.get(words) ?? 0) + 1);
  }
  const requests = streak.length === 1 ? '1 request' : `${streak.length} requests`;
  if (kinds.size === 1) return `${requests} ${[...kinds.keys()][0]}${streak.length > 1 ? ' in a row' : ''}`;
  const parts = [...kinds].map(([words, n]) => `${n} ${words}`).join(', ');
  return `${requests} in a row got no answer of the API (${parts})`;
}

function clock(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 19)} UTC`;
}
