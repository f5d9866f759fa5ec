import type { ClauseStatus } from '../verdict/verdict.js';

// How one report compares with another, as a report holds it (`baseline` in conformance.json) and
// `baseline.ts` makes it: a home of its own, since the report's document holds a comparison and
// the comparison is made of documents.

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
  /** What the run exercised against what the baseline did. Absent in reports of earlier versions. */
  readonly coverage?: Coverage;
}

/** Regressions of coverage: a clause no longer judged, fewer checks run, fewer generated cases. */
export interface Coverage {
  /** Passed there, and now not applicable or skipped (not run): no longer judged. */
  readonly lost: ClauseChange[];
  /** Checks that ran (not `not_applicable`, not `skipped`), before and now. */
  readonly checksRun: { readonly before: number; readonly after: number };
  /** Generated cases of the property checks that ran, before and now. */
  readonly propertyCases: { readonly before: number; readonly after: number };
  /** Any of the three shrank: a regression of coverage, which fails the gate under `--require-complete`. */
  readonly regressed: boolean;
}
