import type { Vitest } from 'vitest/node';
import type { Broker } from '../broker/broker.js';
import type { RunningBroker } from '../broker/channel.js';
import { CLAUSE_IDS } from '../clauses/catalogue.js';
import { ConformanceError } from '../errors.js';
import { closeDispatcher } from '../http/client.js';
import type { SigningKey } from '../integrity/signing-key.js';
import type { Output } from '../output.js';
import type { Stopped } from '../report/document.js';
import type { HarEntries } from '../report/har-entries.js';
import { notRunCount, stoppedResults, type ClauseContext, type ClauseResult } from '../verdict/verdict.js';
import type { Heartbeat } from './heartbeat.js';
import { closeWithin, CLOSE_BOUND_MS } from './close-bound.js';
import { onInterrupt, SIGNAL_EXIT, type Interrupt, type StopSignal } from './interrupt.js';
import { liveKeysLine } from './live-keys.js';
import type { RecordCollector } from './parts.js';
import { provisionalReport, type ProvisionalReport } from './provisional-report.js';
import { writeStoppedReport } from './stopped-report.js';
import type { RunSlices } from './slices.js';
import type { Target } from './target.js';
import type { Teardown } from './teardown.js';
import type { StartedSuites } from './suites.js';

/** What ended the checks before they were done: a signal, or a target that stopped answering (`broker/outage.ts`). */
export type EarlyStop = { readonly signal: StopSignal } | { readonly targetGone: string };

/**
 * How far the run got: what the report of a run that stops early draws on, what the heartbeat's
 * estimate reads, and what closing the run closes. Filled in by the stages as they get there.
 */
export interface Trail {
  readonly target: Target | null;
  readonly broker: Broker | null;
  readonly served: RunningBroker | null;
  readonly heartbeat: Heartbeat | null;
  /** Where the run writes its lines: the heartbeat's output once there is one. */
  readonly io: Output;
  readonly signingKey: SigningKey | null;
  readonly notes: readonly string[];
  readonly teardown: Teardown | null;
  readonly collector: RecordCollector | null;
  /** Which clauses apply: set once the checks start, so that a stop before then leaves every clause "not run". */
  readonly clauses: ClauseContext | null;
  readonly running: Vitest | null;
  /** The checks' vitest, started before the preflight: closed however the run ends. */
  readonly suites: StartedSuites | null;
  /** The HAR's entries, rendered as the log grows: stopped however the run ends. */
  readonly harEntries: HarEntries | null;
}

/** After a signal, how long the checks in flight may take to end before the teardown starts anyway. */
const STOP_GRACE_MS = 2000;

/** Errors of the preflight (the target, not the settings). */
const PREFLIGHT_CODES: ReadonlySet<string> = new Set(['CONF_TARGET_UNREACHABLE', 'CONF_TARGET_REDIRECTED', 'CONF_TARGET_NOT_API', 'CONF_KEY_REJECTED']);

/**
 * The one home of every way a run ends other than its verdict: a signal (`interrupt.ts`), a dead
 * target, a wrong setting, the preflight's refusal, a fault of the suite. Each deletes the run's
 * keys within the teardown's bound and replaces the provisional report with one that says why.
 */
export class RunStops {
  readonly interrupt: Interrupt;
  /** A run killed outright leaves this report, written as the run starts and again as its ledger changes. */
  readonly provisional: ProvisionalReport;
  #trail: Trail;

  constructor(
    private readonly run: RunSlices['stops'] & { readonly startedAt: Date; readonly seed: number },
    io: Output,
  ) {
    this.#trail = {
      target: null,
      broker: null,
      served: null,
      heartbeat: null,
      io,
      signingKey: null,
      notes: [],
      teardown: null,
      collector: null,
      clauses: null,
      running: null,
      suites: null,
      harEntries: null,
    };
    this.interrupt = onInterrupt(io, {
      onFirst: (signal) => {
        this.#io.err(
          `${signal}: stopping the checks, then deleting the keys this run created (at most ${run.teardownTimeoutMs / 1000} s; ${signal} again exits at once)`,
        );
        this.#trail.broker?.pacer.stop(`the run was interrupted by ${signal}`);
        void this.#trail.running?.cancelCurrentRun('keyboard-input');
      },
      onSecond: () => this.#io.err(this.#liveKeys(this.#trail.broker?.ledger.outstanding('api_key') ?? [])),
    });
    this.provisional = provisionalReport(() => {
      if (!run.dryRun) this.#report('unfinished', 'the run did not finish', stoppedResults([], this.#trail.clauses, 'the run did not finish'));
    });
  }

  get trail(): Trail {
    return this.#trail;
  }

  /**
   * A stage got this far. A broker, once there is one, keeps the provisional report current with
   * its ledger, and is stopped at once where a signal came before it.
   */
  reached(part: Partial<Trail>): void {
    this.#trail = { ...this.#trail, ...part };
    if (part.broker) {
      part.broker.ledger.watch(() => this.provisional.refresh());
      if (this.interrupt.signal) part.broker.pacer.stop(`the run was interrupted by ${this.interrupt.signal}`);
    }
  }

  /** How long checks still in flight after a stop may take to end: never the whole teardown. */
  get graceMs(): number {
    return Math.min(STOP_GRACE_MS, this.run.teardownTimeoutMs / 4);
  }

  /** A signal or a dead target ended the checks: the keys deleted within the teardown's bound, then a report that says so. */
  async stopped(stop: EarlyStop): Promise<number> {
    const io = this.#io;
    const { teardownTimeoutMs } = this.run;
    // The signal as now known: the launcher's exit, heard first, may have come with a signal since.
    const signal = 'signal' in stop ? (this.interrupt.signal ?? stop.signal) : null;
    const why = 'signal' in stop ? `the run was interrupted by ${signal}` : stop.targetGone;
    if (!signal) io.err(`${why}: stopping the checks, then deleting the keys this run created (at most ${teardownTimeoutMs / 1000} s)`);
    const teardownStart = Date.now();
    // null: the teardown itself failed (the target went away); the keys then stay in the ledger.
    const torn = await this.#trail.teardown?.bounded().catch(() => null);
    if (signal) io.err(`teardown: ${Date.now() - teardownStart} ms (bound ${teardownTimeoutMs / 1000} s)`);
    const outstanding = this.#trail.broker?.ledger.outstanding('api_key') ?? [];
    const { collector, clauses } = this.#trail;
    const results = stoppedResults(collector?.records ?? [], clauses, why, collector?.planned ?? null);
    // A key still live is marked `(key left)` by the document, as for any run.
    const because = signal ? `interrupted by ${signal} before the run could judge every clause` : why;
    const published = signal ? this.#report('interrupted', because, results, signal) : this.#report('target-gone', because, results);
    io.err(`verdict: inconclusive: ${because}; ${notRunCount(results)} of ${CLAUSE_IDS.length} clauses not run`);
    if (outstanding.length > 0 || torn === null) io.err(this.#liveKeys(outstanding));
    io.out(`reports: ${published.files.join(', ')}`);
    return signal ? SIGNAL_EXIT[signal] : 2;
  }

  /**
   * An error ended the run: after a signal, as the signal; a `ConformanceError` (a setting, the
   * profile, the preflight), its one line and exit 2; anything else, a fault of the suite, thrown
   * on. Either way, outside a dry run, the keys deleted and a report that says why.
   */
  async failed(error: unknown): Promise<number> {
    if (this.interrupt.signal) return await this.stopped({ signal: this.interrupt.signal });
    const { dryRun } = this.run;
    const teardown = () => this.#trail.teardown?.bounded().catch(() => undefined);
    if (error instanceof ConformanceError) {
      this.#io.err(error.toLine());
      if (!dryRun) {
        const kind = PREFLIGHT_CODES.has(error.code) ? 'preflight' : 'settings';
        const why = kind === 'preflight' ? 'the preflight stopped the run' : 'a setting is wrong';
        await teardown();
        // The one line above is all the terminal says; the report folder says it for a CI page.
        this.#report(kind, error.toLine(), stoppedResults([], this.#trail.clauses, why));
      }
      return 2;
    }
    if (!dryRun) {
      await teardown();
      this.#report(
        'suite-fault',
        `the suite itself broke: ${(error as Error)?.message ?? String(error)}`,
        stoppedResults([], this.#trail.clauses, 'the suite broke'),
      );
    }
    throw error;
  }

  /** Whatever ended the run: the keys deleted (within the bound, where that is still to do), then everything it started closed. */
  async close(): Promise<void> {
    this.provisional.close();
    this.interrupt.dispose();
    this.#trail.heartbeat?.stop();
    this.#trail.harEntries?.stop();
    try {
      await this.#trail.teardown?.bounded();
    } catch (error) {
      this.#io.err(`cleanup failed: ${(error as Error).message}; \`conformance cleanup\` deletes what the ledger lists`);
    }
    const { suites, served, target } = this.#trail;
    const closed = await closeWithin(async () => {
      await suites?.close();
      await served?.close();
      await target?.reference?.close();
      await closeDispatcher();
    });
    // Its keys and reports are done by now: a CI job must not hang on the suite's own parts winding
    // down (a run whose report was whole once never exited, on a loaded machine under libfaketime).
    // Said on standard output, with the run's progress: it is nothing for the user to mend, and a
    // wrong setting's one line on standard error stays one (a wrong key's run, stopped by its
    // preflight while its vitest was still starting, took longer than the bound to close beside a
    // busy core: `npm run stress`).
    if (!closed) this.#io.out(`closing the run's checks and connections took more than ${CLOSE_BOUND_MS / 1000} s: the run ends without waiting for them`);
  }

  get #io(): Output {
    return this.#trail.io;
  }

  #liveKeys(live: Parameters<typeof liveKeysLine>[0]): string {
    return liveKeysLine(live, this.run.report, this.#trail.teardown?.foundKeyPath ?? null);
  }

  #report(kind: Stopped['kind'], because: string, results: readonly ClauseResult[], signal?: StopSignal) {
    const { report, startedAt, seed } = this.run;
    const { target, broker } = this.#trail;
    // The run's own report replaces the provisional one, which is never written after it.
    if (kind !== 'unfinished') this.provisional.close();
    return writeStoppedReport({
      // The provisional report is replaced at the end: a CI page's summary gets the final one only.
      stepSummary: kind !== 'unfinished',
      report,
      startedAt,
      kind,
      ...(signal ? { signal } : {}),
      because,
      results,
      baseUrl: target?.baseUrl ?? null,
      embedded: report.baseUrl === null,
      profile: target?.loaded ?? null,
      seed,
      broker,
      preflightNotes: this.#trail.notes,
      suiteFaults: this.#trail.collector?.suiteFaults ?? [],
      signingKey: this.#trail.signingKey,
    });
  }
}
