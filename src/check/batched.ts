import fc from 'fast-check';
import { CASES_PER_SUBMISSION } from '../broker/submission-cap.js';
import { bisectBatches, splitInto, type BatchAnswer, type Located } from './bisect.js';
import { Finding, type RowsJudged } from './outcome.js';
import { learntLimits, planLimitOf } from './plan-limit.js';
import type { Exchange } from '../http/exchange.js';

/** What batches read and add to of the check that sends them (`CheckContext`). */
export interface BatchingCheck {
  /** The check's exchanges, in order: a batch's are those it adds. */
  readonly exchanges: readonly Exchange[];
  /** Of those, its generated cases': a property's batches add theirs. */
  readonly propertyExchanges: Exchange[];
  readonly run: { readonly seed: number; readonly propertyRuns: number };
}

/** The run's cap on submissions as a check keeps to it (`CheckSubmissions`, which sends its batches through here). */
export interface SubmissionCap {
  readonly cap: number;
  readonly check: BatchingCheck;
  room(): Promise<number>;
  noRoom(): never;
  learn(limits: readonly string[], judged: RowsJudged | null): void;
}

/**
 * Sends the cases of one batch in one request that may create a submission and judges the answer
 * as a property's predicate does, throwing a finding; answers false when the run's cap left no
 * room to send it (`t.submissions.create` answered null).
 */
export type SendBatch<C> = (cases: readonly C[]) => Promise<boolean>;

/** A 4xx met only by a whole batch is a limit on a request's size the document leaves open (413, too many rows). */
const sizeLimit = (failure: Finding) => {
  const status = failure.evidence.at(-1)?.response?.status;
  return status !== undefined && status >= 400 && status < 500;
};

/**
 * A case's key in the shrink's memo (its input as fast-check prints it), made once for each case: a
 * candidate is looked up as the shrink meets it and again once its batch is answered, and a
 * generated case can be some hundred KB.
 */
const keys = new WeakMap<object, string>();
function keyOf(c: unknown): string {
  if (typeof c !== 'object' || c === null) return fc.stringify(c);
  let key = keys.get(c);
  if (key === undefined) keys.set(c, (key = fc.stringify(c)));
  return key;
}

/**
 * Sends a batch and says how it came out. With a memo, the answer is kept for each case: a case
 * judged alone, and every case of a batch that passed (a submission of several cases passes only
 * if each would alone), so that no case is sent twice.
 */
function answerOf<C>(send: SendBatch<C>, memo?: Map<string, BatchAnswer<Finding>>): (batch: readonly C[]) => Promise<BatchAnswer<Finding>> {
  return async (batch) => {
    const key = batch.length === 1 ? keyOf(batch[0]) : null;
    const known = key === null ? undefined : memo?.get(key);
    if (known) return known;
    let answer: BatchAnswer<Finding>;
    try {
      answer = (await send(batch)) ? { outcome: 'pass' } : { outcome: 'unsent' };
    } catch (error) {
      if (!(error instanceof Finding)) throw error;
      // The plan's limit on rows or bytes is learnt, not judged: the same cases go again in halves.
      answer = planLimitOf(error.evidence.at(-1)) ? { outcome: 'limit' } : { outcome: 'fail', failure: error };
    }
    if (answer.outcome === 'pass') for (const c of batch) memo?.set(keyOf(c), answer);
    else if (key !== null && (answer.outcome === 'fail' || answer.outcome === 'limit')) memo?.set(key, answer);
    return answer;
  };
}

/** Why a batch was not narrowed to one case, in words appended to its finding. */
function batchNote(located: Extract<Located<Finding>, { found: 'batch' }>, cap: number): string {
  return located.why === 'cap'
    ? ` (${located.count} cases in one submission; the --max-submissions cap (${cap}) left no room to narrow them to one)`
    : ` (${located.count} cases in one submission; each half of them passes alone)`;
}

/**
 * Counts the rows of the cases a batched check leaves unjudged (past the plan's limit alone, or
 * without room under the cap once the limit split them), and says what the check learnt.
 */
class Judged<C> {
  readonly #unjudged = { limit: 0, cap: 0 };
  readonly #total: number;

  constructor(
    private readonly cases: readonly C[],
    private readonly rowsOf: (c: C) => number,
  ) {
    this.#total = cases.reduce((sum, c) => sum + rowsOf(c), 0);
  }

  readonly unjudged = (from: number, count: number, why: 'limit' | 'cap') => {
    this.#unjudged[why] += this.cases.slice(from, from + count).reduce((sum, c) => sum + this.rowsOf(c), 0);
  };

  /** The limits learnt from `exchanges`, and how many rows were judged when not all were. */
  learnt(subs: SubmissionCap, exchanges: readonly Exchange[]): void {
    const limits = learntLimits(exchanges);
    const { limit, cap } = this.#unjudged;
    const why = [
      ...(limit > 0 ? [`${limit} past the plan's limit even alone`] : []),
      ...(cap > 0 ? [`${cap} without room under --max-submissions (${subs.cap})${limits.length > 0 ? " once the plan's limit split them" : ''}`] : []),
    ];
    subs.learn(limits, why.length > 0 ? { judged: this.#total - limit - cap, of: this.#total, why: why.join(', ') } : null);
  }
}

/**
 * Fixed cases, in groups that each travel in one submission (fewer, merged in order, where the
 * cap leaves less room); the first case that fails alone is the finding, as if each had been sent
 * by itself. Not applicable when the cap leaves no room at all.
 */
export async function batchedCases<C>(
  subs: SubmissionCap,
  groups: readonly (readonly C[])[],
  send: SendBatch<C>,
  rowsOf: (c: C) => number = () => 1,
): Promise<void> {
  const room = await subs.room();
  if (room === 0) subs.noRoom();
  const batches = room >= groups.length ? groups : splitInto(groups.flat(), room);
  const judged = new Judged(batches.flat(), rowsOf);
  const from = subs.check.exchanges.length;
  let located: Located<Finding>;
  try {
    located = await bisectBatches(batches, answerOf(send), { benignTogether: sizeLimit, unjudged: judged.unjudged });
    if (located?.found === 'unsent' && located.from > 0) judged.unjudged(located.from, Infinity, 'cap');
  } finally {
    judged.learnt(subs, subs.check.exchanges.slice(from));
  }
  if (located === null) return;
  if (located.found === 'unsent') {
    if (located.from === 0) subs.noRoom();
    return;
  }
  if (located.found === 'case') throw located.failure;
  throw new Finding(located.failure.reason + batchNote(located, subs.cap), located.failure.evidence);
}

export interface BatchedPropertyOptions<T> {
  /** @default the run's property budget */
  readonly numRuns?: number;
  /**
   * How many submissions the generated cases want (their size, say); never fewer than one per
   * CASES_PER_SUBMISSION cases, and fewer where the cap leaves less room. @default one per CASES_PER_SUBMISSION cases
   */
  readonly batches?: (values: readonly T[]) => number;
  /** A case's share of a batch when the cases are split (its bytes, say). @default 1 */
  readonly weight?: (value: T) => number;
  /** The rows a case carries, to say how many were judged when not all could be. @default 1 */
  readonly rows?: (value: T) => number;
}

/**
 * A property whose generated cases travel many to a submission. The cases are those fast-check
 * generates from the run's seed, the same as a case per request would meet; when a submission
 * fails, bisection finds the first case that fails alone, and fast-check replays that case by its
 * path and shrinks it, one case a request, while the cap leaves room. The finding carries the
 * shrunk input, seed and path, as `t.property`'s does.
 */
export async function batchedProperty<T>(
  subs: SubmissionCap,
  arbitrary: fc.Arbitrary<T>,
  send: SendBatch<T>,
  options: BatchedPropertyOptions<T> = {},
): Promise<void> {
  const t = subs.check;
  const room = await subs.room();
  if (room === 0) subs.noRoom();
  const seed = t.run.seed;
  const numRuns = options.numRuns ?? t.run.propertyRuns;
  // The cases a run of a request per case would meet, in order: generation does not depend on answers.
  const values: T[] = [];
  fc.check(
    fc.property(arbitrary, (value) => {
      values.push(value);
    }),
    { seed, numRuns },
  );
  const wanted = Math.max(Math.ceil(values.length / CASES_PER_SUBMISSION), options.batches?.(values) ?? 1);
  const count = Math.max(1, Math.min(room, wanted));
  const memo = new Map<string, BatchAnswer<Finding>>();
  const answer = answerOf(send, memo);
  // Its requests are the generated cases', as a property's are: the plan scales them with the budget.
  const from = t.exchanges.length;
  const judged = new Judged(values, options.rows ?? (() => 1));
  let located: Located<Finding>;
  try {
    located = await bisectBatches(splitInto(values, count, options.weight), answer, { benignTogether: sizeLimit, unjudged: judged.unjudged });
    if (located?.found === 'unsent' && located.from > 0) judged.unjudged(located.from, Infinity, 'cap');
    if (located?.found === 'case')
      await replay(subs, arbitrary, answer, memo, { seed, numRuns, path: String(located.index) }, (cases) => options.batches?.(cases) ?? 1, options.weight);
  } finally {
    t.propertyExchanges.push(...t.exchanges.slice(from));
    judged.learnt(subs, t.exchanges.slice(from));
  }
  if (located === null) return;
  if (located.found === 'unsent') {
    if (located.from === 0) subs.noRoom();
    return;
  }
  if (located.found === 'batch') {
    const counterexample = fc.stringify(values.slice(located.from, located.from + located.count));
    throw new Finding(`${located.failure.reason + batchNote(located, subs.cap)} (input ${counterexample})`, located.failure.evidence, {
      ...located.failure.repro,
      seed,
      counterexample,
    });
  }
}

/**
 * fast-check replays the failing case by its path and shrinks it, as it would with a request per
 * case, but the candidates of each step of the shrink travel many to a submission too: a run of
 * fast-check with answers known so far (and any other candidate taken as passing) collects the
 * candidates of the deepest failing case; they are sent in batches and bisected to the first that
 * fails, which fast-check then descends into on its next run. The path and input it ends on are
 * those of a shrink that sent each candidate alone, at the cost of a submission for each step whose
 * candidates all pass, where one case a request cost one for each candidate that passes.
 */
async function replay<T>(
  subs: SubmissionCap,
  arbitrary: fc.Arbitrary<T>,
  answer: (batch: readonly T[]) => Promise<BatchAnswer<Finding>>,
  memo: Map<string, BatchAnswer<Finding>>,
  parameters: { seed: number; numRuns: number; path: string },
  batches: (values: readonly T[]) => number,
  weight: ((value: T) => number) | undefined,
): Promise<never> {
  let capped = false;
  for (;;) {
    const unknown: T[] = [];
    const details = fc.check(
      fc.property(arbitrary, (value) => {
        const known = memo.get(keyOf(value));
        if (known?.outcome === 'fail') throw known.failure;
        if (!known) unknown.push(value);
      }),
      parameters,
    );
    if (unknown.length === 0 || capped) return report(subs, details, capped);
    const located = await bisectBatches(splitInto(unknown, Math.max(1, batches(unknown)), weight), answer, { benignTogether: sizeLimit });
    if (located === null || located.found === 'case') continue;
    // Candidates that fail only together: the shrink ends where it is. No room to try them: the cap ends it.
    if (located.found === 'batch' && located.why === 'together') return report(subs, details, false);
    capped = true;
  }
}

/** The finding of a shrunk case, with the seed and path that replay it and the input it ends on. */
function report<T>(subs: SubmissionCap, details: fc.RunDetails<[T]>, capped: boolean): never {
  // The suite breaking ends the check as it would a property's.
  if (!(details.errorInstance instanceof Finding)) throw details.errorInstance ?? new Error('the shrink lost its failing case');
  const cause = details.errorInstance;
  const counterexample = fc.stringify(details.counterexample?.[0]);
  const note = capped ? ` (the --max-submissions cap (${subs.cap}) stopped the shrinking: a smaller input may fail too)` : '';
  throw new Finding(`${cause.reason} (input ${counterexample})${note}`, cause.evidence, {
    ...cause.repro,
    seed: details.seed,
    path: details.counterexamplePath ?? undefined,
    counterexample,
  });
}
