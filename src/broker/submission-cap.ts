/**
 * Submissions cannot be deleted under the API document, so a run keeps to a cap on the ones it
 * creates (`--max-submissions`, issue 24). The count lives in the broker, once for every worker:
 * a check claims a place before it sends a body the target may accept, and settles the claim once
 * answered, so that two claims never share the last place. What was created is counted from the
 * exchanges themselves (`observe`: every 2xx to a submission POST), so that a body meant to be
 * refused that a lenient target accepted (GEN-4, SUB-2) takes its place too.
 */
export const DEFAULT_MAX_SUBMISSIONS = 10;

/** Where the API document creates a submission (POST). */
export const SUBMISSION_CREATION_PATH = '/api/v1/submissions';

/**
 * Generated cases a submission carries at most by default: 100 cases a property (about 200 rows,
 * 1.4 MB) travel in 3 submissions of under 1 MB each, a body size servers and front ends accept
 * by default (Fastify's and nginx's limit is 1 MB).
 */
export const CASES_PER_SUBMISSION = 40;

export class SubmissionCap {
  /** Claimed and not yet settled: requests in flight that may create a submission. */
  #claimed = 0;
  #created = 0;

  /** Takes a place under `cap`; false when the run has none left. */
  claim(cap: number): boolean {
    if (this.#claimed + this.#created >= cap) return false;
    this.#claimed++;
    return true;
  }

  /** A submission the exchanges show created, claimed or not. */
  observe(): void {
    this.#created++;
  }

  /**
   * Settles one claim. An answer was observed already (a 2xx counted by `observe`, which the
   * recording of the exchange reaches before the claim settles); a request that got none may
   * have created one, and keeps its place.
   */
  settle(answered: boolean): void {
    this.#claimed = Math.max(0, this.#claimed - 1);
    if (!answered) this.#created++;
  }

  /** Places left under `cap`, claims in flight counted as taken. */
  room(cap: number): number {
    return Math.max(0, cap - this.#claimed - this.#created);
  }

  get created(): number {
    return this.#created;
  }
}
