import { INCOMPLETE_KINDS, notRunCause, type NotRunKind } from '../clauses/applicability.js';
import { CLAUSE_IDS, CLAUSES, familyOf, type ClauseId, type Family, type Level } from '../clauses/catalogue.js';
import { CHECK_STATUSES, NOT_ANSWERED, type CheckRecord, type CheckStatus } from '../check/outcome.js';
import type { Profile } from '../profile/profile.js';
import type { Selection } from '../clauses/selection.js';

export type ClauseStatus = CheckStatus;

export interface ClauseResult {
  readonly id: ClauseId;
  readonly level: Level;
  readonly family: Family;
  readonly section: string;
  readonly summary: string;
  readonly status: ClauseStatus;
  readonly reason?: string;
  /** For `not_applicable`: why, as a kind. */
  readonly cause?: NotRunKind;
  readonly checks: readonly CheckRecord[];
}

/**
 * Severity of each status: a clause takes its most severe check's (never `pass` over `skipped`).
 * A failure shown on an answer of the API outweighs a check that could not judge (`error`: the
 * target did not answer, or the suite broke): what was shown stands.
 */
const SEVERITY: Record<CheckStatus, number> = { not_applicable: 0, pass: 1, skipped: 2, warn: 3, error: 4, fail: 5 };

export interface ClauseContext {
  readonly selection: Selection;
  readonly profile: Profile;
  readonly hasOtherAccountKey: boolean;
  readonly readOnly: boolean;
}

/** Every clause of the catalogue exactly once, with the status its checks earned. */
export function clauseResults(records: readonly CheckRecord[], context: ClauseContext): ClauseResult[] {
  return CLAUSE_IDS.map((id) => {
    const checks = records.filter((r) => r.clause === id);
    const base = { id, level: CLAUSES[id].level, family: familyOf(id), section: CLAUSES[id].section, summary: CLAUSES[id].summary, checks };
    if (checks.length === 0) {
      // No check ran, not even to be left out: the whole suite file was left out (read-only leaves
      // a clause out only when its checks write).
      const cause = notRunCause(id, context, { writes: context.readOnly });
      if (cause) return { ...base, status: 'not_applicable', reason: cause.reason, cause: cause.kind };
      return { ...base, status: 'skipped', reason: 'no check for this clause in this version of the suite' };
    }
    const worst = checks.reduce((a, b) => (SEVERITY[b.status] > SEVERITY[a.status] ? b : a));
    return {
      ...base,
      status: worst.status,
      ...(worst.reason ? { reason: worst.reason } : {}),
      ...(worst.status === 'not_applicable' ? { cause: worst.cause ?? 'undeclared' } : {}),
    };
  });
}

export type Verdict = 'conformant' | 'non-conformant' | 'inconclusive';

export interface VerdictResult {
  readonly verdict: Verdict;
  readonly complete: boolean;
  readonly exitCode: 0 | 1 | 2;
  /** One line saying why, for the terminal and the summary. */
  readonly because: string;
}

export const EXIT_CODES: Record<Verdict, 0 | 1 | 2> = { conformant: 0, 'non-conformant': 1, inconclusive: 2 };

/** The verdict and completeness, exactly as the run interface defines them. */
export function verdictOf(
  results: readonly ClauseResult[],
  options: { strict: boolean; requireComplete: boolean; suiteFaults?: readonly string[] },
): VerdictResult {
  const failed = results.filter((r) => r.status === 'fail');
  const errors = results.filter((r) => r.status === 'error');
  const complete = results.every(
    (r) => r.level !== 'MUST' || r.status === 'pass' || (r.status === 'not_applicable' && !INCOMPLETE_KINDS.has(r.cause ?? 'undeclared')),
  );
  const make = (verdict: Verdict, because: string): VerdictResult => ({ verdict, complete, exitCode: EXIT_CODES[verdict], because });
  if (failed.length > 0) return make('non-conformant', `${failed.length} clause(s) failed: ${failed.map((r) => r.id).join(', ')}`);
  const more = (list: readonly unknown[]) => (list.length > 1 ? ` (and ${list.length - 1} more)` : '');
  const unanswered = errors.filter((r) => r.reason?.startsWith(NOT_ANSWERED));
  const faults = [...errors.filter((r) => !unanswered.includes(r)).map((r) => `${r.id}: ${r.reason ?? 'error'}`), ...(options.suiteFaults ?? [])];
  if (faults.length > 0) return make('inconclusive', `the suite itself broke: ${faults[0]}${more(faults)}`);
  if (unanswered.length > 0) {
    const first = unanswered[0]!;
    const what = first.reason!.slice(NOT_ANSWERED.length).replace(/^: /, '');
    return make('inconclusive', `${unanswered.length} clause(s) could not be judged, ${NOT_ANSWERED}: ${first.id}: ${what}${more(unanswered)}`);
  }
  if (options.requireComplete && !complete) return make('inconclusive', 'the run is incomplete and --require-complete was given');
  return make('conformant', complete ? 'no applicable MUST clause failed' : 'no applicable MUST clause failed, but the run is incomplete');
}

export function countBy(results: readonly ClauseResult[]): Record<Level, Record<ClauseStatus, number>> {
  const empty = () => Object.fromEntries(CHECK_STATUSES.map((status) => [status, 0])) as Record<ClauseStatus, number>;
  const counts: Record<Level, Record<ClauseStatus, number>> = { MUST: empty(), SHOULD: empty() };
  for (const r of results) counts[r.level][r.status]++;
  return counts;
}

/**
 * The clauses of a run that stopped before its end, for a report that says so: a clause no check
 * finished, or only some of its checks (`planned` counts them where known), is `skipped` with
 * "not run: <why>"; a failure already found stays, with its evidence. Left out by the selection
 * or the profile stays `not_applicable`. Without a context (the profile was never read), every
 * clause is not run. Errors of checks cut short by the stop are the stop's, not the suite's.
 */
export function stoppedResults(
  records: readonly CheckRecord[],
  context: ClauseContext | null,
  why: string,
  planned: ReadonlyMap<ClauseId, number> | null = null,
): ClauseResult[] {
  const finished = records.filter((r) => r.status !== 'error');
  const notRun = (result: ClauseResult): ClauseResult => ({ ...result, status: 'skipped', reason: `not run: ${why}` });
  if (!context) {
    return CLAUSE_IDS.map((id) =>
      notRun({ id, level: CLAUSES[id].level, family: familyOf(id), section: CLAUSES[id].section, summary: CLAUSES[id].summary, status: 'skipped', checks: [] }),
    );
  }
  return clauseResults(finished, context).map((result) => {
    if (result.status === 'fail' || result.status === 'warn') return result;
    if (result.checks.length === 0) return result.status === 'not_applicable' ? result : notRun(result);
    const expected = planned?.get(result.id);
    return expected !== undefined && result.checks.length < expected ? notRun(result) : result;
  });
}

/** Clauses a stopped run did not judge: for its one-line headline. */
export function notRunCount(results: readonly ClauseResult[]): number {
  return results.filter((r) => r.status === 'skipped' && r.reason?.startsWith('not run: ')).length;
}
