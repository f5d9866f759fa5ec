/**
 * Many cases travel in one request (a submission carries the rows of many generated cases, so a
 * run creates few); when a request fails, it is split in halves, the first half tried first,
 * until the first case that fails alone is found: the case a request per case would have met
 * first, so the counterexample stays as exact as it was.
 */

/** How one request of a batch of cases came out. */
export type BatchAnswer<F> =
  | { readonly outcome: 'pass' }
  | { readonly outcome: 'fail'; readonly failure: F }
  /** Not sent: the run's cap leaves no room for it. */
  | { readonly outcome: 'unsent' }
  /**
   * Refused for a limit of the deployment's plan (rows a submission, a body's size), which the
   * document leaves open: no finding; the same cases are tried again in halves.
   */
  | { readonly outcome: 'limit' };

/** What a bisection found: nothing failing, a case, or a batch it could not narrow further. */
export type Located<F> =
  | null
  | { readonly found: 'case'; readonly index: number; readonly failure: F }
  /**
   * A batch failed but could not be narrowed: `cap` when there was no room for its halves,
   * `together` when each half passes on its own (the batch's size, or its cases together).
   */
  | { readonly found: 'batch'; readonly from: number; readonly count: number; readonly failure: F; readonly why: 'cap' | 'together' }
  /** The batch starting at `from` could not be sent at all. */
  | { readonly found: 'unsent'; readonly from: number; readonly count: number };

export interface BisectOptions<F> {
  /**
   * A failure of a whole batch whose halves each pass is no finding (a limit on the size of a
   * request, which the document leaves open: 413, or a 4xx for too many rows). @default never
   */
  readonly benignTogether?: (failure: F) => boolean;
  /**
   * Called for cases that go unjudged: `limit` when one case alone is past the plan's limit,
   * `cap` when the chunks of a batch refused for a limit found no room under the cap. @default ignored
   */
  readonly unjudged?: (from: number, count: number, why: 'limit' | 'cap') => void;
}

/**
 * What the batches of one search learnt of the plan's limit, in cases a request: the most a request
 * carried that was accepted, and the fewest that were refused for the limit.
 */
export interface LearntLimit {
  accepted: number;
  refused: number;
}

/** A search that has learnt nothing of a limit yet. */
export const noLimitLearnt = (): LearntLimit => ({ accepted: 0, refused: Infinity });

/** The first failing case among `cases` (indices from `from`), sending them as one batch first. */
export async function bisect<C, F>(
  cases: readonly C[],
  send: (batch: readonly C[]) => Promise<BatchAnswer<F>>,
  options: BisectOptions<F> = {},
  from = 0,
  learnt: LearntLimit = noLimitLearnt(),
): Promise<Located<F>> {
  if (cases.length === 0) return null;
  // Known to be past the plan's limit: packed at once, without sending the whole batch first.
  if (cases.length >= learnt.refused) return packPastLimit(cases, send, options, from, learnt);
  const answer = await send(cases);
  if (answer.outcome === 'pass') learnt.accepted = Math.max(learnt.accepted, cases.length);
  if (answer.outcome === 'limit') refusedAt(learnt, cases.length);
  return afterAnswer(cases, answer, send, options, from, learnt);
}

/** What a batch's answer leads to: nothing, a case or batch that fails, or the batch packed past the plan's limit. */
async function afterAnswer<C, F>(
  cases: readonly C[],
  answer: BatchAnswer<F>,
  send: (batch: readonly C[]) => Promise<BatchAnswer<F>>,
  options: BisectOptions<F>,
  from: number,
  learnt: LearntLimit,
): Promise<Located<F>> {
  if (answer.outcome === 'pass') return null;
  if (answer.outcome === 'unsent') return { found: 'unsent', from, count: cases.length };
  if (answer.outcome === 'limit') return packPastLimit(cases, send, options, from, learnt);
  if (cases.length === 1) return { found: 'case', index: from, failure: answer.failure };
  const half = Math.ceil(cases.length / 2);
  const batch = { found: 'batch' as const, from, count: cases.length, failure: answer.failure };
  for (const [part, start] of [
    [cases.slice(0, half), from],
    [cases.slice(half), from + half],
  ] as const) {
    const located = await bisect(part, send, options, start, learnt);
    if (located?.found === 'unsent') return { ...batch, why: 'cap' };
    if (located) return located;
  }
  return options.benignTogether?.(answer.failure) ? null : { ...batch, why: 'together' };
}

/**
 * The cases of a batch the plan refused, sent again in order in chunks as large as the plan takes:
 * the chunk's size is searched between the most cases accepted and the fewest refused (a refusal
 * creates nothing, so the search costs requests, not submissions), then kept, so that the cap
 * carries as many rows as the limit lets it. A case refused alone, or cases the cap leaves no room
 * for, go unjudged (said through `unjudged`), never a finding; a chunk that fails is bisected.
 */
async function packPastLimit<C, F>(
  cases: readonly C[],
  send: (batch: readonly C[]) => Promise<BatchAnswer<F>>,
  options: BisectOptions<F>,
  from: number,
  learnt: LearntLimit,
): Promise<Located<F>> {
  let at = 0;
  while (at < cases.length) {
    const size = chunkSize(learnt, cases.length - at);
    const chunk = cases.slice(at, at + size);
    const answer = await send(chunk);
    if (answer.outcome === 'limit') {
      if (size > 1) {
        refusedAt(learnt, size);
        continue;
      }
      options.unjudged?.(from + at, 1, 'limit');
    } else if (answer.outcome === 'unsent') {
      options.unjudged?.(from + at, cases.length - at, 'cap');
      return null;
    } else {
      if (answer.outcome === 'pass') learnt.accepted = Math.max(learnt.accepted, size);
      const located = await afterAnswer(chunk, answer, send, options, from + at, learnt);
      if (located?.found === 'unsent') {
        options.unjudged?.(located.from, from + cases.length - located.from, 'cap');
        return null;
      }
      if (located) return located;
    }
    at += size;
  }
  return null;
}

/**
 * A refusal of `size` cases: the fewest refused, and the most accepted kept below it (cases differ
 * in size, so a count once accepted may be refused), so that every search step sends fewer.
 */
function refusedAt(learnt: LearntLimit, size: number): void {
  learnt.refused = Math.min(learnt.refused, size);
  learnt.accepted = Math.min(learnt.accepted, size - 1);
}

/** Halfway between the most cases accepted and the fewest refused, or the most accepted once they meet. */
function chunkSize(learnt: LearntLimit, rest: number): number {
  const size = learnt.refused - learnt.accepted <= 1 ? learnt.accepted : Math.floor((learnt.accepted + learnt.refused) / 2);
  return Math.max(1, Math.min(rest, size));
}

/** Splits `cases` into `count` batches in order, as even in size (by `weight`) as whole cases allow. */
export function splitInto<C>(cases: readonly C[], count: number, weight: (c: C) => number = () => 1): C[][] {
  const batches: C[][] = [];
  const total = cases.reduce((sum, c) => sum + weight(c), 0);
  let current: C[] = [];
  let carried = 0;
  for (const c of cases) {
    current.push(c);
    carried += weight(c);
    // Close a batch once it holds its share of the whole, leaving one batch at least for the rest.
    if (batches.length < count - 1 && carried >= (total * (batches.length + 1)) / count) {
      batches.push(current);
      current = [];
    }
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * Bisects each batch in turn; the first that locates anything ends the search. What one batch
 * learnt of the plan's limit packs the next.
 */
export async function bisectBatches<C, F>(
  batches: readonly (readonly C[])[],
  send: (batch: readonly C[]) => Promise<BatchAnswer<F>>,
  options: BisectOptions<F> = {},
): Promise<Located<F>> {
  let from = 0;
  const learnt = noLimitLearnt();
  for (const batch of batches) {
    const located = await bisect(batch, send, options, from, learnt);
    if (located) return located;
    from += batch.length;
  }
  return null;
}
