import { maxSubmissionsCause } from '../clauses/applicability.js';
import { TransportFailure, type HttpResponse } from '../http/client.js';
import type fc from 'fast-check';
import type { RunContext } from './run-context.js';
import { batchedCases, batchedProperty, type BatchedPropertyOptions, type BatchingCheck, type SendBatch } from './batched.js';
import { CheckNotRun } from './outcome.js';
import type { RowsJudged } from './outcome.js';
import type { WorkerState } from './worker.js';

/**
 * `t.submissions`: the run's cap on created submissions (`--max-submissions`), as a check keeps to
 * it. Submissions cannot be deleted under the API document, so every request that may create one
 * goes through `create`, which takes a place in the broker's count first and gives it back when the
 * target did not create anything. Bodies the target must refuse (SUB-2, ERR-3, GEN-4) are sent
 * without: they create nothing unless the target is at fault.
 */
export class CheckSubmissions {
  /** Submissions this check created (answered 2xx). */
  created = 0;
  /** What its batches learnt of the deployment's plan limits (`check/plan-limit.ts`). */
  readonly limits: string[] = [];
  /** How many rows its batches judged, when the plan's limit or the cap left some out. */
  judged: RowsJudged | null = null;

  constructor(
    readonly run: RunContext,
    readonly state: WorkerState,
    readonly check: BatchingCheck,
  ) {}

  /** The cap of the run. */
  get cap(): number {
    return this.run.maxSubmissions;
  }

  /** Places left under the cap, for a check that plans how many requests to spread its rows over. */
  room(): Promise<number> {
    return this.state.broker.submissionRoom(this.cap);
  }

  /**
   * Sends a request that may create a submission, if the cap leaves room; null when it does not.
   * A request that got no answer may have created one: its place stays taken.
   */
  async create(send: () => Promise<HttpResponse>): Promise<HttpResponse | null> {
    if (!(await this.state.broker.claimSubmission(this.cap))) return null;
    let answered = true;
    try {
      const res = await send();
      if (res.status >= 200 && res.status < 300) this.created++;
      return res;
    } catch (error) {
      // No answer at all: the target may have created it.
      answered = !(error instanceof TransportFailure);
      throw error;
    } finally {
      await this.state.broker.settleSubmission(answered);
    }
  }

  /**
   * Fixed cases that may each create a submission, a group to a submission (merged where the cap
   * leaves less room); the first case that fails alone is the finding (`check/batched.ts`).
   */
  cases<C>(groups: readonly (readonly C[])[], send: SendBatch<C>, rowsOf?: (c: C) => number): Promise<void> {
    return batchedCases(this, groups, send, rowsOf);
  }

  /** Records what a batch learnt (`check/batched.ts`): each limit once, the rows judged summed over batches. */
  learn(limits: readonly string[], judged: RowsJudged | null): void {
    for (const line of limits) if (!this.limits.includes(line)) this.limits.push(line);
    if (!judged) return;
    this.judged = this.judged
      ? { judged: this.judged.judged + judged.judged, of: this.judged.of + judged.of, why: `${this.judged.why}; ${judged.why}` }
      : judged;
  }

  /**
   * A property whose generated cases travel many to a submission; a failing submission is bisected
   * to its first failing case, which fast-check replays and shrinks (`check/batched.ts`).
   */
  property<T>(arbitrary: fc.Arbitrary<T>, send: SendBatch<T>, options: BatchedPropertyOptions<T> = {}): Promise<void> {
    return batchedProperty(this, arbitrary, send, options);
  }

  /** Ends the check as not applicable: the cap leaves it no room. */
  noRoom(): never {
    const cause = maxSubmissionsCause(this.cap);
    throw new CheckNotRun('not_applicable', cause.reason, cause.kind);
  }
}
