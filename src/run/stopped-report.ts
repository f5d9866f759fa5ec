import { mkdirSync } from 'node:fs';
import type { Broker } from '../broker/broker.js';
import { Redactor } from '../secrets/redactor.js';
import type { SigningKey } from '../integrity/signing-key.js';
import type { LoadedProfile } from '../profile/profile.js';
import { buildDocument, type Stopped } from '../report/document.js';
import { integrityOf, publish, type Published } from '../report/publish.js';
import { CLAUSE_IDS } from '../clauses/catalogue.js';
import type { ReportSlice } from './slices.js';
import { notRunCount, type ClauseResult } from '../verdict/verdict.js';

export interface StoppedRun {
  /** What the reports say of the settings, and where they go. */
  readonly report: ReportSlice;
  readonly startedAt: Date;
  readonly kind: Stopped['kind'];
  readonly signal?: string;
  /** The one line that says why, as the terminal said it. */
  readonly because: string;
  readonly results: readonly ClauseResult[];
  readonly baseUrl: string | null;
  readonly embedded: boolean;
  readonly profile: LoadedProfile | null;
  readonly seed: number | null;
  /** The run's broker, once there is one: its log, ledger and redactor go into the report. */
  readonly broker: Broker | null;
  readonly preflightNotes?: readonly string[];
  readonly suiteFaults?: readonly string[];
  readonly signingKey?: SigningKey | null;
  /** Append `summary.md` to `$GITHUB_STEP_SUMMARY`. @default true */
  readonly stepSummary?: boolean;
}

/** The line a CI page shows for a run that stopped: what stopped it and how much it left unjudged. */
function headline(run: StoppedRun, notRun: number): string {
  const of = `${notRun} of ${CLAUSE_IDS.length} clauses not run`;
  switch (run.kind) {
    case 'interrupted':
      return `run interrupted by ${run.signal ?? 'a signal'}: ${of}`;
    case 'preflight':
      return `run stopped by its preflight: ${of}`;
    case 'settings':
      return `run not started, a setting is wrong: ${of}`;
    case 'suite-fault':
      return `run broken by a fault of the suite: ${of}`;
    case 'target-gone':
      return `run stopped, ${run.because}; ${of}`;
    case 'unfinished':
      return `run not finished (started ${run.startedAt.toISOString()}): if this file stays, the run was killed before it could write its verdict`;
  }
}

/**
 * The report folder of a run that ended before its verdict (a signal, the preflight, a wrong
 * setting, a fault of the suite), or the provisional one a run writes as it starts and replaces
 * at its end: `conformance.json`, `summary.md` and `junit.xml` say `inconclusive` and why, with
 * the clauses not run, so that a CI page never shows green, or nothing, for it.
 */
export function writeStoppedReport(run: StoppedRun): Published {
  const notRun = notRunCount(run.results);
  const stopped: Stopped = { kind: run.kind, ...(run.signal ? { signal: run.signal } : {}), headline: headline(run, notRun), clausesNotRun: notRun };
  const redactor = run.broker?.redactor ?? configuredSecrets(run.report);
  const document = buildDocument({
    verdict: { verdict: 'inconclusive', complete: false, exitCode: 2, because: run.because },
    results: run.results,
    baseUrl: run.baseUrl ?? run.report.baseUrl ?? '(embedded reference server, not started)',
    embedded: run.embedded,
    profile: run.profile ?? { unread: run.report.profileFile ?? '(none)' },
    mode: run.report.mode,
    argv: run.report.argv,
    settings: run.report.shown,
    seed: run.seed ?? run.report.seed ?? 0,
    startedAt: run.startedAt,
    endedAt: new Date(),
    log: run.broker?.log() ?? [],
    waitedMs: run.broker?.pacer.waitedMs ?? 0,
    ledger: run.broker?.ledger.entries ?? [],
    preflightNotes: run.preflightNotes ?? [],
    suiteFaults: run.suiteFaults ?? [],
    integrity: integrityOf(run.signingKey),
    stopped,
  });
  mkdirSync(run.report.reportDir, { recursive: true });
  // The provisional report is written again as the ledger changes: its HAR stays empty, or every
  // rewrite would render the whole log so far (megabytes, each second) for a report meant to be replaced.
  const harLog = run.kind === 'unfinished' ? [] : (run.broker?.log() ?? []);
  return publish(document, run.report.reportDir, redactor, run.signingKey ?? null, run.stepSummary ?? true, harLog);
}

/** Before the broker exists: the configured secrets alone. */
function configuredSecrets(report: ReportSlice): Redactor {
  const redactor = new Redactor();
  for (const secret of report.secrets) redactor.add(secret);
  return redactor;
}
