import type { NotRunKind } from '../clauses/applicability.js';
import type { ClauseId } from '../clauses/catalogue.js';
import type { FilterCombination, State, ValueClass } from '../clauses/dimensions.js';
import type { AuthKind, Exchange } from '../http/exchange.js';

/** A check's result; a clause takes the most severe of its checks' (see `clauseStatus`). */
export const CHECK_STATUSES = ['pass', 'not_applicable', 'skipped', 'warn', 'fail', 'error'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** How to repeat what a check did. */
export interface Reproduction {
  /** curl lines of the evidence exchanges; credentials come from the environment. */
  curl?: string[];
  /** fast-check's seed and path, and the shrunk input, for a failed property. */
  seed?: number;
  path?: string | undefined;
  counterexample?: string;
}

/**
 * What a check spans that cannot be read off its exchanges, as it declares it: the table of
 * docs/coverage.md reads it from the records of the coverage run.
 */
export interface CheckDimensions {
  /** Of the resource the check acts on (a key never used, used, used only to write, deleted). */
  readonly states?: readonly State[] | undefined;
  /** Of the values it sends or judges (absent, null, empty, at a bound, beyond ASCII, huge, past a storage bound, repeated). */
  readonly values?: readonly ValueClass[] | undefined;
  /** Of the filters of the lists it reads (none, each alone, together). */
  readonly filters?: readonly FilterCombination[] | undefined;
  /** It judges exchanges others made: every exchange of the run, or those of these clauses' checks. */
  readonly judges?: 'run' | readonly ClauseId[];
}

export interface CheckRecord {
  readonly clause: ClauseId;
  /**
   * The check's stable name within its clause (`ceiling-without-key`): what the request estimates
   * and the coverage table know it by, unchanged when its title is reworded.
   */
  readonly key: string;
  /** For people: free text, reworded at will. */
  readonly title: string;
  /** The suite that declares it (`keys`): where it runs among the lanes (`check/suite-order.ts`). */
  readonly suite?: string;
  status: CheckStatus;
  /** One line in plain words, for anything but a pass. */
  reason?: string;
  /** For `not_applicable`: why, as a kind (see `clauses/applicability.ts`). */
  cause?: NotRunKind;
  evidence?: Exchange[];
  repro?: Reproduction;
  /** Requests the check sent, by credential. */
  requests?: Partial<Record<AuthKind, number>>;
  /** Of those, the requests of its generated cases, which grow with the property budget. */
  propertyRequests?: Partial<Record<AuthKind, number>>;
  /** The check sent a request that changes data (a method other than GET, HEAD or OPTIONS). */
  writes?: boolean;
  /** Submissions the check created (answered 2xx), against `--max-submissions`. */
  submissions?: number;
  /**
   * The deployment's limits on rows or bytes a submission the check learnt from refusals (422
   * plan_limit_exceeded, 413): the document leaves them open, so they are learnt, never judged.
   */
  planLimits?: string[];
  /** Rows the check judged, when the plan's limit and `--max-submissions` left some out. */
  rowsJudged?: RowsJudged;
  /** API keys the check created (answered 2xx): the figures behind `--dry-run`'s write plan. */
  keys?: number;
  /** Of those, the keys its generated cases created, which grow with the property budget. */
  propertyKeys?: number;
  /** Of its requests, those of the sequences the explorer drew, which grow with `--explore`. */
  exploreRequests?: Partial<Record<AuthKind, number>>;
  /** Of its keys, the most the drawn sequences may create, which grow with `--explore`. */
  exploreKeys?: number;
  /** Of its requests, those it sends only on a key pool (`CheckContext.onPool`): none in a run that keeps to one key. */
  pooledRequests?: Partial<Record<AuthKind, number>>;
  /** The sequences of operations it explored, one line each, and the seed that draws them again. */
  explored?: { readonly seed: number; readonly sequences: readonly string[] };
  /** Its declared states, value classes and judged exchanges, when it declares any. */
  dimensions?: CheckDimensions;
}

/** `judged` of `of` rows, and why the rest were not (`120 of 200 rows judged: 80 without room under --max-submissions (10)`). */
export interface RowsJudged {
  readonly judged: number;
  readonly of: number;
  readonly why: string;
}

declare module '@vitest/runner' {
  interface TaskMeta {
    conformance?: CheckRecord;
    /** The suite a check belongs to (`suites/keys.suite.ts`: `keys`), set on its block by src/check/lanes.ts. */
    conformanceSuite?: string;
  }
}

/**
 * How the reason of an `error` check begins when the API never answered one of its requests
 * after the retries (refused, reset, a front end's 502/503/504): not a finding, nor a fault of
 * the suite (see `TransportFailure.unanswered`).
 */
export const NOT_ANSWERED = 'the target did not answer';

/** The target does not conform: a finding with the exchanges that prove it. */
export class Finding extends Error {
  override readonly name = 'Finding';
  constructor(
    readonly reason: string,
    readonly evidence: Exchange[] = [],
    readonly repro: Reproduction = {},
  ) {
    super(reason);
  }
}

/**
 * The check cannot be exercised (`skipped`) or does not apply (`not_applicable`, with its cause:
 * by default a fact the profile leaves undeclared).
 */
export class CheckNotRun extends Error {
  override readonly name = 'CheckNotRun';
  constructor(
    readonly status: 'skipped' | 'not_applicable',
    readonly reason: string,
    readonly causeKind: NotRunKind = 'undeclared',
  ) {
    super(reason);
  }
}

/** What a body run by `t.attempt` came to, without exceptions as control flow in the suites. */
export type Attempt<T> =
  | { readonly outcome: 'done'; readonly value: T }
  /** A finding (a failure of the target, a transport failure included) the body raised. */
  | { readonly outcome: 'finding'; readonly reason: string; rethrow(): never }
  /** The body found its check cannot run (skipped or not applicable). */
  | { readonly outcome: 'not_run'; readonly reason: string; rethrow(): never };
