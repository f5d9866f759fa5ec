import { inject, test } from 'vitest';
import { notRunCause, type NotRunCause } from '../clauses/applicability.js';
import { CLAUSES, isClauseId, type ClauseId } from '../clauses/catalogue.js';
import { ReadOnlyRefusal, TransportFailure } from '../http/client.js';
import { curlLine } from '../http/curl.js';
import { isSafeMethod } from '../http/methods.js';
import { createdAt, describeRequest, type AuthKind, type Exchange } from '../http/exchange.js';
import { KEY_CREATION_PATH } from '../keys/paths.js';
import type { RunContext } from './run-context.js';
import { CheckContext } from './context.js';
import { CheckNotRun, Finding, NOT_ANSWERED, type CheckDimensions, type CheckRecord } from './outcome.js';
import { Shared } from './shared.js';
import { WorkerState } from './worker.js';
import { receiveContext } from './context-channel.js';

/**
 * A check's facts beside it: its stable key and the dimensions it spans (`states`, `values`,
 * `filters`, `judges`, for docs/coverage.md) are declared here and nowhere else, so that adding or rewording
 * a check touches its suite file alone (then `npm run coverage`).
 */
export interface CheckOptions extends CheckDimensions {
  /**
   * The check's stable name, unique within its clause: words joined by `-`, like
   * `ceiling-without-key`, or `envelope-${name}` for one of a loop's checks of each collection. The
   * request estimates and the coverage table know the check by it; the title is free text for
   * people, reworded at will. A new key is a new check.
   */
  readonly key: string;
  /** The check changes data on the target: left out by `--read-only`. @default false */
  readonly writes?: boolean;
  /** Extra condition of applicability beyond the clause's needs; a string is the reason it does not apply. */
  readonly applies?: (run: RunContext) => true | string;
  /** @default 15 minutes: pacing against a real deployment can wait whole windows */
  readonly timeoutMs?: number;
  /**
   * The check does not depend on the order of its neighbours (it reads, or waits on keys of its
   * own: a second for a revocation, a rate-limit window): it runs beside the concurrent checks next
   * to it in its suite (at most 20 checks at once in the run: src/run/suites.ts), so that their
   * waits overlap.
   * @default false
   */
  readonly concurrent?: boolean;
  /**
   * The check needs to create submissions (`t.submissions`): not applicable under
   * `--max-submissions 0`, since they cannot be deleted. @default false
   */
  readonly createsSubmissions?: boolean;
  /**
   * The most keys the check creates, where chance decides how many (the explorer's drawn
   * sequences): `fixed`, and `perSequence` for each sequence `--explore` draws. The check keeps
   * to it, and its figures for the write plan are this bound, not what one run happened to create
   * (`--dry-run`'s "at most"). @default the keys the measured run created
   */
  readonly keys?: KeyBound;
}

/** The keys a check creates at most: `fixed + perSequence * explore` (`keyBound`). */
export interface KeyBound {
  readonly fixed: number;
  readonly perSequence: number;
}

/** The most keys a check of this bound creates when the explorer draws `explore` sequences. */
export function keyBound(bound: KeyBound, explore: number): number {
  return bound.fixed + bound.perSequence * explore;
}

/**
 * The options of a check that does not depend on its neighbours' order (`CheckOptions.concurrent`):
 * it runs beside them, so that one waits for its answers while another sends.
 */
export const BESIDE = { concurrent: true } as const;

const DEFAULT_TIMEOUT_MS = 15 * 60_000;
const KEY_FORM = /^[a-z0-9][a-zA-Z0-9]*(-[a-zA-Z0-9]+)*$/;

/**
 * The state checks share, as vitest fixtures with an explicit scope: what one worker keeps (its
 * broker link, its client, the key lifecycle's memory) and what the checks of one suite share
 * (`t.once`; the suites are blocks of one file, src/check/lanes.ts). Nothing is kept in module variables.
 */
function checkTest() {
  return test
    .extend('workerState', { scope: 'worker' }, async () => new WorkerState(await receiveContext<RunContext>(inject('conformance').context)))
    .extend('suiteShared', { scope: 'file' }, async () => new SharedBySuite());
}

/** Each suite's shared values apart: a walk before the writes is not the walk after them. */
class SharedBySuite {
  readonly #suites = new Map<string, Shared>();
  /** What the checks of every suite share (`t.onceForRun`). */
  readonly run = new Shared();

  of(suite: string): Shared {
    let shared = this.#suites.get(suite);
    if (!shared) this.#suites.set(suite, (shared = new Shared()));
    return shared;
  }
}

/**
 * Made at the first `check()`, not when this module loads: the kit's helpers (a walk, a page
 * judge) are also used outside vitest, by the benchmarks, where there is no runner to extend.
 */
let checkTestApi: ReturnType<typeof checkTest> | null = null;

/**
 * Makes the checks' fixtures: called by the file vitest runs (src/check/lanes.ts) before its first
 * block, since vitest refuses a fixture of worker scope defined inside one.
 */
export function defineCheckFixtures(): void {
  checkTestApi ??= checkTest();
}

/**
 * Declares one check of one clause. The only way suites define tests: the clause ID prefixes the
 * test name, applicability and selection are decided here, and the outcome reaches the
 * conformance reporter as task meta.
 */
export function check(id: ClauseId, title: string, body: (t: CheckContext) => Promise<void>, options: CheckOptions): void {
  if (!isClauseId(id)) throw new Error(`unknown clause ${String(id)}`);
  if (!KEY_FORM.test(options.key)) throw new Error(`${id} ${title}: the key "${options.key}" is not words joined by - (like ceiling-without-key)`);
  const name = `${id} ${title}`;
  checkTestApi ??= checkTest();
  const declare = options.concurrent ? checkTestApi.concurrent : checkTestApi;
  declare(name, { timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS }, async ({ task, skip, annotate, workerState, suiteShared }) => {
    const run = workerState.run;
    const suite = task.meta.conformanceSuite;
    const record: CheckRecord = { clause: id, key: options.key, title, ...(suite ? { suite } : {}), status: 'pass', ...dimensionsOf(options) };
    task.meta.conformance = record;
    const leftOut = causeNotToRun(id, run, options);
    if (leftOut) {
      record.status = 'not_applicable';
      record.reason = leftOut.reason;
      record.cause = leftOut.kind;
      skip(leftOut.reason);
    }
    const t = new CheckContext(run, workerState, { suite: suiteShared.of(suite ?? task.file.name), run: suiteShared.run }, name);
    try {
      await body(t);
    } catch (error) {
      await settle(error, record, run, workerState, t);
    } finally {
      tallyRequests(record, t, options.keys ? { bound: options.keys, explore: run.explore } : null);
      if (t.explored.length > 0) record.explored = { seed: run.seed, sequences: t.explored };
      if (t.submissions.created > 0) record.submissions = t.submissions.created;
      if (t.submissions.limits.length > 0) record.planLimits = [...t.submissions.limits];
      if (t.submissions.judged) record.rowsJudged = t.submissions.judged;
    }
    if (record.status === 'skipped' || record.status === 'not_applicable') skip(record.reason);
    if (record.status === 'warn') await annotate(`warning: ${record.reason}`, 'warning');
    if (record.status === 'fail' || record.status === 'error') {
      const failure = new Error(`${id}: ${record.reason}`);
      failure.stack = failure.message;
      throw failure;
    }
  });
}

/** The dimensions the check declares, as its record carries them: only those it declares. */
function dimensionsOf({ states, values, filters, judges }: CheckOptions): Pick<CheckRecord, 'dimensions'> {
  const declared: CheckDimensions = {
    ...(states ? { states } : {}),
    ...(values ? { values } : {}),
    ...(filters ? { filters } : {}),
    ...(judges ? { judges } : {}),
  };
  return Object.keys(declared).length > 0 ? { dimensions: declared } : {};
}

/** What the check cost the target, by credential: the figures behind `--dry-run`'s estimate. */
function tallyRequests(
  record: CheckRecord,
  {
    exchanges,
    propertyExchanges: generated,
    exploredExchanges: drawn,
    pooledExchanges: pooled,
  }: Pick<CheckContext, 'exchanges' | 'propertyExchanges' | 'exploredExchanges' | 'pooledExchanges'>,
  declared: { readonly bound: KeyBound; readonly explore: number } | null,
): void {
  record.requests = byCredential(exchanges);
  if (generated.length > 0) record.propertyRequests = byCredential(generated);
  if (drawn.length > 0) record.exploreRequests = byCredential(drawn);
  if (pooled.length > 0) record.pooledRequests = byCredential(pooled);
  if (exchanges.some((e) => !isSafeMethod(e.request.method))) record.writes = true;
  const keys = keysCreated(exchanges);
  if (keys > 0 && declared) {
    // The bound, as the plan scales it: keys + exploreKeys * (explore / measured explore - 1) is the bound at any share.
    record.exploreKeys = declared.bound.perSequence * declared.explore;
    record.keys = declared.bound.fixed + record.exploreKeys;
    return;
  }
  if (keys > 0) record.keys = keys;
  const generatedKeys = keysCreated(generated);
  if (generatedKeys > 0) record.propertyKeys = generatedKeys;
}

/** Keys the exchanges created: creations (where the document puts them) that answered 2xx. */
function keysCreated(exchanges: readonly Exchange[]): number {
  return exchanges.filter((e) => createdAt(e, KEY_CREATION_PATH)).length;
}

function byCredential(exchanges: readonly Exchange[]): Partial<Record<AuthKind, number>> {
  const requests: Partial<Record<AuthKind, number>> = {};
  for (const e of exchanges) requests[e.auth] = (requests[e.auth] ?? 0) + 1;
  return requests;
}

function causeNotToRun(id: ClauseId, run: RunContext, options: CheckOptions): NotRunCause | null {
  const cause = notRunCause(
    id,
    { profile: run.profile, hasOtherAccountKey: run.keys.other !== null, selection: run.selection, readOnly: run.readOnly, maxSubmissions: run.maxSubmissions },
    { writes: options.writes, submissions: options.createsSubmissions ? 1 : 0 },
  );
  if (cause) return cause;
  // A check's own condition is a fact of the target the profile leaves open.
  const applies = options.applies?.(run) ?? true;
  return applies === true ? null : { kind: 'undeclared', reason: applies };
}

async function settle(error: unknown, record: CheckRecord, run: RunContext, runtime: WorkerState, t: CheckContext): Promise<void> {
  if (error instanceof CheckNotRun) {
    record.status = error.status;
    record.reason = error.reason;
    if (error.status === 'not_applicable') record.cause = error.causeKind;
    return;
  }
  // A check not declared `writes` that tries to write anyway: left out like one that is.
  if (error instanceof ReadOnlyRefusal) {
    record.status = 'not_applicable';
    record.reason = 'read-only';
    record.cause = 'read-only';
    return;
  }
  // The API never answered: nothing about it was shown, so `error`, naming what came instead.
  if (error instanceof TransportFailure && error.unanswered) {
    record.status = 'error';
    record.reason = await runtime.redact(`${NOT_ANSWERED}: ${error.message}`);
    record.evidence = [error.exchange];
    record.repro = { curl: [curlLine(error.exchange)] };
    return;
  }
  let finding: Finding | null = null;
  if (error instanceof Finding) finding = error;
  else if (error instanceof TransportFailure) finding = new Finding(error.message, [error.exchange]);
  if (!finding) {
    record.status = 'error';
    record.reason = `the suite broke: ${error instanceof Error ? error.message : String(error)}`;
    record.evidence = t.exchanges.slice(-1);
    return;
  }
  const level = CLAUSES[record.clause].level;
  record.status = level === 'MUST' || run.strict ? 'fail' : 'warn';
  const evidence = finding.evidence.length > 0 ? finding.evidence : t.exchanges.slice(-1);
  record.evidence = evidence;
  record.repro = { ...finding.repro, curl: evidence.map(curlLine) };
  record.reason = await runtime.redact(finding.reason + redirectNote([...evidence, ...t.exchanges]));
}

/**
 * API v1 never redirects and the client never follows one, so a 3xx on the way to a finding is
 * most likely its cause: the reason says so, with the Location (often a wrong base URL).
 */
function redirectNote(exchanges: readonly Exchange[]): string {
  const redirected = exchanges.find((e) => e.response && e.response.status >= 300 && e.response.status < 400 && e.response.status !== 304);
  if (!redirected?.response) return '';
  const location = redirected.response.headers.location ?? '(no Location)';
  return ` (${describeRequest(redirected)} was redirected with ${redirected.response.status} to ${location}; redirects are never followed)`;
}
