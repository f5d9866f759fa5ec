import { basename } from 'node:path';
import { UNVERIFIABLE_STATEMENTS } from '../clauses/catalogue.js';
import { suiteIdentity, type SuiteIdentity } from '../integrity/suite-identity.js';
import { outstandingOf, type LedgerEntry } from '../broker/ledger.js';
import type { Exchange } from '../http/exchange.js';
import type { LoadedProfile } from '../profile/profile.js';
import type { RunMode } from '../config/run-mode.js';
import { countBy, type ClauseResult, type ClauseStatus, type VerdictResult } from '../verdict/verdict.js';
import type { Comparison } from './comparison.js';
import { becauseWithKeyLeft } from './footprint.js';
import { pathFlagsToNames } from './local-paths.js';
import { networkOf, type NetworkFigures } from './network.js';
import { clockOf, type ClockFigures } from './clock.js';
import { diagnose, type ClauseDiagnosis } from '../diagnosis/diagnose.js';
import { loadFingerprints } from '../diagnosis/fingerprint.js';

/** The machine-readable result, `conformance.json` (the run interface). */
export interface ConformanceDocument {
  /** Names the format, so that `diff` and `rerun` refuse a file that is not a report. */
  format: typeof REPORT_FORMAT;
  formatVersion: typeof REPORT_FORMAT_VERSION;
  verdict: VerdictResult['verdict'];
  complete: boolean;
  because: string;
  target: { baseUrl: string; embedded: boolean; note?: string };
  /** A certification run (`--certify`), or plainly what the run is not. Absent in reports of earlier versions. */
  mode?: RunMode;
  /** sha256 and content are null only when the run stopped before the profile could be read. */
  profile: {
    name: string;
    /** The file the profile was read from, by name only (no local path). */
    source: string;
    /** Over the exact bytes of `text`. */
    sha256: string | null;
    content: unknown;
    /** The exact text the profile was read from: what `rerun` writes back, so that its sha256 is the same. Absent in earlier reports. */
    text?: string | null;
  };
  suite: SuiteIdentity;
  command: string[];
  settings: Record<string, unknown>;
  seed: number;
  startedAt: string;
  endedAt: string;
  durationMs: number;
  /** Clauses by level and status. */
  counts: ReturnType<typeof countBy>;
  /** Clauses by status, both levels together. */
  totals: Record<ClauseStatus, number>;
  clauses: Array<Omit<ClauseResult, 'checks'> & { checks: ClauseResult['checks'] }>;
  unverifiable: readonly string[];
  preflight: { notes: readonly string[] };
  environment: { requests: number; unplanned429: number; waitedMs: number; schedule?: ScheduleRecord };
  /** What the network and any front end did: retries, transport failures, front-end answers. Absent in reports of earlier versions. */
  network?: NetworkFigures;
  /** The target's clock against the suite's, from its Date headers: a fact of the run, never a finding. Absent in reports of earlier versions. */
  clock?: ClockFigures;
  /**
   * Each clause that failed or warned, with at most three likely causes among the known defects (the
   * mutants' fingerprints), or none where no known defect matches. Advice, not a verdict: it changes
   * no status and no exit code. Absent in reports of earlier versions; empty where nothing failed.
   */
  diagnosis?: ClauseDiagnosis[];
  resources: { created: LedgerEntry[]; removed: LedgerEntry[] };
  suiteFaults: string[];
  /**
   * What the run learnt of the deployment where the document leaves it open (its plan's limits
   * on rows and bytes a submission), and how many rows a check judged where those limits and
   * `--max-submissions` left some out. Absent when there is nothing to say.
   */
  learnt?: string[];
  /** Present when the run ended before its verdict (a signal, the preflight, a setting, a fault, or not at all yet). */
  stopped?: Stopped;
  /** Present when the run was given `--baseline`. */
  baseline?: Comparison;
  /** The manifest written beside the report, and whether (and by which key) it is signed. */
  integrity?: Integrity;
}

/**
 * The run's schedule (`src/run/schedule.ts`) against what the run took: the wall time it predicted
 * once the preflight had seen the target, and the requests it planned on each budget beside those sent.
 */
export interface ScheduleRecord {
  /** The predicted wall time, start to report (the preflight's time included). */
  plannedMs: number;
  windowSeconds: number;
  /** Windows the busiest budget was planned to need. */
  windows: number;
  /** Keys of the main account the work was planned over, the configured one included. */
  keys: number;
  /** Per budget: requests planned and sent (for the pool's keys, each key's plan and the most one key carried). */
  budgets: { who: string; count: number; planned: number; actual: number }[];
}

/** Why a run ended before it could judge every clause it set out to. */
export const STOP_KINDS = {
  interrupted: 'a signal stopped the run',
  preflight: 'the target could not be judged at all',
  settings: 'a setting or the profile is wrong',
  'suite-fault': 'the suite itself broke',
  'target-gone': 'the target stopped answering during the run',
  unfinished: 'the run has not finished: it is going on, or its process was killed',
} as const;

export interface Stopped {
  readonly kind: keyof typeof STOP_KINDS;
  /** The signal, for `interrupted`. */
  readonly signal?: string;
  /** One line for a CI page: `run interrupted by SIGTERM: 23 of 61 clauses not run`. */
  readonly headline: string;
  /** Clauses of the catalogue no check of this run judged. */
  readonly clausesNotRun: number;
}

/** What `report.html` and `conformance.json` say of the manifest the run writes beside them. */
export interface Integrity {
  readonly manifest: string;
  readonly signed: boolean;
  /** `sha256:<hex>` of the signing key's public half (signing-key.ts); null when unsigned. */
  readonly publicKeyFingerprint: string | null;
}

export const REPORT_FORMAT = 'api-v1-conformance-report';
export const REPORT_FORMAT_VERSION = 1;

export interface DocumentInput {
  readonly verdict: VerdictResult;
  readonly results: readonly ClauseResult[];
  readonly baseUrl: string;
  readonly embedded: boolean;
  readonly targetNote?: string;
  /** null: the run stopped before it could read one (`source` then names the file, if any). */
  readonly profile: LoadedProfile | { readonly unread: string };
  readonly mode: RunMode;
  readonly argv: readonly string[];
  readonly settings: Record<string, unknown>;
  readonly seed: number;
  readonly startedAt: Date;
  readonly endedAt: Date;
  readonly log: readonly Exchange[];
  readonly waitedMs: number;
  /** The run's schedule against what it took; absent where the run made none (it stopped first). */
  readonly schedule?: ScheduleRecord;
  readonly ledger: readonly LedgerEntry[];
  readonly preflightNotes: readonly string[];
  readonly suiteFaults: readonly string[];
  readonly baseline?: Comparison;
  readonly integrity?: Integrity;
  readonly stopped?: Stopped;
}

export function buildDocument(input: DocumentInput): ConformanceDocument {
  const counts = countBy(input.results);
  return {
    format: REPORT_FORMAT,
    formatVersion: REPORT_FORMAT_VERSION,
    verdict: input.verdict.verdict,
    complete: input.verdict.complete,
    because: becauseWithKeyLeft(input.verdict.because, input.ledger),
    target: { baseUrl: input.baseUrl, embedded: input.embedded, ...(input.targetNote ? { note: input.targetNote } : {}) },
    mode: input.mode,
    profile:
      'unread' in input.profile
        ? { name: '(not read)', source: basename(input.profile.unread), sha256: null, content: null, text: null }
        : {
            name: input.profile.profile.name,
            source: basename(input.profile.source),
            sha256: input.profile.sha256,
            content: JSON.parse(input.profile.text),
            text: input.profile.text,
          },
    suite: suiteIdentity(),
    command: ['conformance', ...pathFlagsToNames(redactHeaderValues(input.argv))],
    settings: input.settings,
    seed: input.seed,
    startedAt: input.startedAt.toISOString(),
    endedAt: input.endedAt.toISOString(),
    durationMs: input.endedAt.getTime() - input.startedAt.getTime(),
    counts,
    totals: totalsOf(counts),
    clauses: input.results.map((r) => ({ ...r, checks: r.checks.map(trimEvidence) })),
    unverifiable: UNVERIFIABLE_STATEMENTS,
    preflight: { notes: input.preflightNotes },
    environment: {
      requests: input.log.length,
      unplanned429: input.log.filter((e) => e.response?.status === 429 && !e.planned429).length,
      waitedMs: Math.round(input.waitedMs),
      ...(input.schedule ? { schedule: input.schedule } : {}),
    },
    network: networkOf(input.log),
    clock: clockOf(input.log),
    diagnosis: diagnosisOf(input.results),
    resources: {
      // A creation sent and never answered may have made a key all the same: named, as `creating`.
      created: [...input.ledger.filter((e) => e.event === 'created'), ...outstandingOf(input.ledger, 'api_key').filter((e) => e.event === 'creating')],
      removed: input.ledger.filter((e) => e.event === 'deleted'),
    },
    suiteFaults: [...input.suiteFaults],
    ...learntOf(input.results),
    ...(input.stopped ? { stopped: input.stopped } : {}),
    ...(input.baseline ? { baseline: input.baseline } : {}),
    ...(input.integrity ? { integrity: input.integrity } : {}),
  };
}

/** The likely causes of what failed or warned; none where the fingerprints cannot be read (a report is still written). */
function diagnosisOf(results: readonly ClauseResult[]): ClauseDiagnosis[] {
  const checks = results.flatMap((r) => r.checks);
  if (!checks.some((c) => c.status === 'fail' || c.status === 'warn')) return [];
  try {
    return diagnose(checks, loadFingerprints());
  } catch {
    return [];
  }
}

/** Each limit learnt once, then each check's rows judged, named by its clause and key. */
function learntOf(results: readonly ClauseResult[]): Pick<ConformanceDocument, 'learnt'> {
  const checks = results.flatMap((r) => r.checks);
  const learnt = [
    ...new Set(checks.flatMap((c) => c.planLimits ?? [])),
    ...checks.flatMap((c) => (c.rowsJudged ? [`${c.clause} ${c.key}: ${c.rowsJudged.judged} of ${c.rowsJudged.of} rows judged: ${c.rowsJudged.why}`] : [])),
  ];
  return learnt.length > 0 ? { learnt } : {};
}

/** The header's line on what the run was: a certification, or plainly what it is not (issue 26). */
export function modeHeadline(doc: Pick<ConformanceDocument, 'mode'>): string {
  return doc.mode?.headline ?? 'not a certification: made by a suite without --certify';
}

function totalsOf(counts: ReturnType<typeof countBy>): Record<ClauseStatus, number> {
  const totals = { ...counts.MUST };
  for (const status of Object.keys(totals) as ClauseStatus[]) totals[status] += counts.SHOULD[status];
  return totals;
}

/**
 * A `--header` value may be a gateway token: the command line keeps the header's name only.
 * (Keys never reach the command line: they come from the environment.)
 */
export function redactHeaderValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--header' && i + 1 < argv.length) {
      out.push(arg, withoutValue(argv[++i]!));
    } else if (arg.startsWith('--header=')) {
      out.push(`--header=${withoutValue(arg.slice('--header='.length))}`);
    } else {
      out.push(arg);
    }
  }
  return out;
}

function withoutValue(header: string): string {
  const at = header.indexOf(':');
  return at > 0 ? `${header.slice(0, at)}: [REDACTED]` : '[REDACTED]';
}

/** Evidence bodies are cut to what a reader needs. */
const EVIDENCE_BODY_LIMIT = 4096;

function trimEvidence<T extends { evidence?: Exchange[] }>(check: T): T {
  if (!check.evidence) return check;
  return { ...check, evidence: check.evidence.map((e) => trimResponse(trimRequest(e))) };
}

function trimResponse(e: Exchange): Exchange {
  if (!e.response || e.response.body.length <= EVIDENCE_BODY_LIMIT) return e;
  return { ...e, response: { ...e.response, body: `${e.response.body.slice(0, EVIDENCE_BODY_LIMIT)}…`, truncated: true } };
}

/** A request body of several hundred KiB (GEN-3's, SUB-5's largest rows) would make the report as large. */
function trimRequest(e: Exchange): Exchange {
  const body = e.request.body;
  if (body === undefined || body.length <= EVIDENCE_BODY_LIMIT) return e;
  return { ...e, request: { ...e.request, body: `${body.slice(0, EVIDENCE_BODY_LIMIT)}…`, bytes: Buffer.byteLength(body), truncated: true } };
}
