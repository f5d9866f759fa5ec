import { readJsonFile } from '../files/json-file.js';
import { ConformanceError } from '../errors.js';
import type { ClauseStatus } from '../verdict/verdict.js';
import type { ClauseChange, Comparison, Coverage } from './comparison.js';
import { schemaErrors } from '../schemas.js';
import { footprintLine } from './footprint.js';
import type { ConformanceDocument } from './document.js';
import { propertyBudget } from '../check/property-budget.js';

/** Statuses of a clause that is no longer judged. */
const UNJUDGED: ReadonlySet<ClauseStatus> = new Set(['not_applicable', 'skipped']);

const checksRun = (doc: ConformanceDocument) => doc.clauses.flatMap((c) => c.checks).filter((k) => !UNJUDGED.has(k.status));

/** Cases of the property checks that ran: a report with no `propertyRuns` setting ran the full budget each. */
function propertyCases(doc: ConformanceDocument): number {
  const runs = ((doc.settings as { propertyRuns?: number | null }).propertyRuns ?? null) || propertyBudget();
  return checksRun(doc).filter((k) => k.propertyRequests !== undefined).length * runs;
}

function coverageOf(before: ConformanceDocument, after: ConformanceDocument, change: (c: ConformanceDocument['clauses'][number]) => ClauseChange): Coverage {
  const earlier = new Map(before.clauses.map((c) => [c.id as string, c.status]));
  const lost = after.clauses.filter((c) => earlier.get(c.id) === 'pass' && UNJUDGED.has(c.status)).map(change);
  const checks = { before: checksRun(before).length, after: checksRun(after).length };
  const cases = { before: propertyCases(before), after: propertyCases(after) };
  return { lost, checksRun: checks, propertyCases: cases, regressed: lost.length > 0 || checks.after < checks.before || cases.after < cases.before };
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
  // What each run left on the target: a gate that runs on every merge watches it grow.
  const left = (doc: ConformanceDocument) => footprintLine(doc).replace(/^left on the target: /, '');
  if (left(before) !== left(after)) notes.push(`the baseline left ${left(before)}; this run leaves ${left(after)}`);
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
    coverage: coverageOf(before, after, change),
  };
}

/** Reads a `conformance.json`; a file that is not one is a setting error (exit 2). */
export function readReportFile(file: string, what = 'report'): ConformanceDocument {
  const data = readJsonFile(file, ({ message }) => new ConformanceError('CONF_REPORT_INVALID', `${what} "${file}" cannot be read as JSON: ${message}`));
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
  lines.push(...coverageLines(comparison.coverage).map((line) => `  ${line}`));
  for (const note of comparison.notes) lines.push(`  note: ${note}`);
  return lines;
}

/** Coverage as plain lines: the clauses no longer judged, and the change in checks and cases. */
export function coverageLines(coverage: Coverage | undefined): string[] {
  if (!coverage) return [];
  const lines: string[] = [];
  if (coverage.lost.length > 0) {
    lines.push(`coverage lost: ${coverage.lost.length} clause(s) passed in the baseline and are no longer judged`);
    for (const c of coverage.lost) lines.push(`  ${c.id} (${c.level}) ${c.before ?? 'absent'} → ${c.after}${c.reason ? `: ${c.reason}` : ''}`);
  }
  const delta = (what: string, n: { before: number; after: number }) =>
    `${what}: ${n.after}${n.after === n.before ? ', as in the baseline' : ` (baseline ${n.before}, ${n.after > n.before ? '+' : ''}${n.after - n.before})`}`;
  lines.push(`${delta('checks run', coverage.checksRun)}; ${delta('property cases', coverage.propertyCases)}`);
  if (coverage.regressed) lines.push('coverage regressed against the baseline (fails the gate under --require-complete)');
  return lines;
}

/**
 * The exit status of a run gated on a baseline: a known failure passes the gate, a regression
 * fails it, and an inconclusive run stays inconclusive. Under `--require-complete`, a regression
 * of coverage (a clause no longer judged, fewer checks or cases) fails it too.
 */
export function baselineExitCode(exitCode: 0 | 1 | 2, comparison: Comparison, requireComplete = false): 0 | 1 | 2 {
  if (exitCode === 2) return 2;
  if (comparison.regressions.length > 0) return 1;
  return requireComplete && comparison.coverage?.regressed ? 1 : 0;
}
