import { readFileSync } from 'node:fs';
import { ConformanceError } from '../errors.js';
import type { ClauseStatus } from '../run/verdict.js';
import { schemaErrors } from '../schemas.js';
import type { ConformanceDocument } from './document.js';

/** A clause whose standing changed between two reports. */
export interface ClauseChange {
  readonly id: string;
  readonly level: string;
  /** null: the clause is not in the older report (a newer catalogue). */
  readonly before: ClauseStatus | null;
  readonly after: ClauseStatus;
  readonly reason?: string;
}

/** How a run compares with an earlier one (`--baseline`, `diff`). */
export interface Comparison {
  /** The baseline report, as given. */
  readonly baseline: string;
  readonly baselineVerdict: string;
  readonly baselineStartedAt: string;
  /** Fail now and did not fail there: the only findings that fail a baseline gate. */
  readonly regressions: ClauseChange[];
  /** Failed there and pass now. */
  readonly fixed: ClauseChange[];
  /** Failed there and still fail: known, so they do not fail the gate. */
  readonly stillFailing: ClauseChange[];
  /** Warn now and did not warn there (SHOULD clauses: never fail the gate). */
  readonly newWarnings: ClauseChange[];
  /** Differences that make the comparison less than like for like. */
  readonly notes: string[];
}

/** Statuses that make a run non-conformant. */
const FAILING: ReadonlySet<ClauseStatus> = new Set(['fail']);

export function compareReports(before: ConformanceDocument, after: ConformanceDocument, baselineName: string): Comparison {
  const earlier = new Map(before.clauses.map((c) => [c.id as string, c]));
  const change = (c: ConformanceDocument['clauses'][number]): ClauseChange => ({
    id: c.id,
    level: c.level,
    before: earlier.get(c.id)?.status ?? null,
    after: c.status,
    ...(c.reason ? { reason: c.reason } : {}),
  });
  const regressions: ClauseChange[] = [];
  const fixed: ClauseChange[] = [];
  const stillFailing: ClauseChange[] = [];
  const newWarnings: ClauseChange[] = [];
  for (const clause of after.clauses) {
    const was = earlier.get(clause.id)?.status ?? null;
    const failedThen = was !== null && FAILING.has(was);
    if (FAILING.has(clause.status)) (failedThen ? stillFailing : regressions).push(change(clause));
    else if (failedThen && clause.status === 'pass') fixed.push(change(clause));
    else if (clause.status === 'warn' && was !== 'warn') newWarnings.push(change(clause));
  }
  const notes: string[] = [];
  if (before.target.baseUrl !== after.target.baseUrl && !(before.target.embedded && after.target.embedded)) {
    notes.push(`the baseline judged another target (${before.target.baseUrl})`);
  }
  if (before.profile.sha256 !== after.profile.sha256)
    notes.push(`the baseline used another profile ("${before.profile.name}", sha256 ${before.profile.sha256?.slice(0, 12) ?? 'unknown'})`);
  if (before.suite.catalogueVersion !== after.suite.catalogueVersion) {
    notes.push(`the baseline used clause catalogue ${before.suite.catalogueVersion}, this run ${after.suite.catalogueVersion}`);
  }
  return {
    baseline: baselineName,
    baselineVerdict: before.verdict,
    baselineStartedAt: before.startedAt,
    regressions,
    fixed,
    stillFailing,
    newWarnings,
    notes,
  };
}

/** Reads a `conformance.json`; a file that is not one is a setting error (exit 2). */
export function readReportFile(file: string, what = 'report'): ConformanceDocument {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConformanceError('CONF_REPORT_INVALID', `${what} "${file}" cannot be read as JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  const problems = schemaErrors('conformance-report', data);
  if (problems.length > 0) {
    throw new ConformanceError('CONF_REPORT_INVALID', `${what} "${file}" is not a conformance.json: ${problems.slice(0, 3).join('; ')}`);
  }
  return data as ConformanceDocument;
}

/** The comparison in plain lines, for the terminal (`diff`, and a run with `--baseline`). */
export function comparisonLines(comparison: Comparison): string[] {
  const lines = [`compared with ${comparison.baseline} (${comparison.baselineVerdict}, ${comparison.baselineStartedAt})`];
  const list = (title: string, changes: readonly ClauseChange[]) => {
    if (changes.length === 0) return;
    lines.push(`  ${title}: ${changes.length}`);
    for (const c of changes) lines.push(`    ${c.id} (${c.level}) ${c.before ?? 'absent'} → ${c.after}${c.reason ? `: ${c.reason}` : ''}`);
  };
  list('regressions', comparison.regressions);
  list('fixed', comparison.fixed);
  list('still failing (known)', comparison.stillFailing);
  list('new warnings', comparison.newWarnings);
  if (comparison.regressions.length === 0) lines.push('  no regression');
  for (const note of comparison.notes) lines.push(`  note: ${note}`);
  return lines;
}

/**
 * The exit status of a run gated on a baseline: a known failure passes the gate, a regression
 * fails it, and an inconclusive run stays inconclusive.
 */
export function baselineExitCode(exitCode: 0 | 1 | 2, comparison: Comparison): 0 | 1 | 2 {
  if (exitCode === 2) return 2;
  return comparison.regressions.length > 0 ? 1 : 0;
}
