import { FAILED_CREDENTIALS_BUCKET } from '../pacing/pacer.js';
import { bucketOfCredential, type Credential } from '../http/request.js';
import type { RunContext } from './run-context.js';
import type { WorkerState } from './worker.js';

/**
 * `t.budget`: the rate-limit budget of a credential, for checks that send unpaced on purpose (the
 * rate-limit clauses). Every other request is paced by the client itself.
 */
export class CheckBudget {
  constructor(
    readonly run: RunContext,
    readonly state: WorkerState,
  ) {}

  /** Sets `count` requests of the credential's current window aside, waiting for a window if need be. */
  reserve(credential: Credential, count: number): Promise<void> {
    return this.state.broker.reserve(this.#bucket(credential), credential === 'none', count);
  }

  /** Gives back requests `reserve` set aside that were never sent. */
  release(credential: Credential, count: number): Promise<void> {
    return this.state.broker.release(this.#bucket(credential), credential === 'none', count);
  }

  /** Resolves at the start of a window the credential has not spent from yet. */
  untilFresh(credential: Credential): Promise<void> {
    return this.state.broker.untilFresh(this.#bucket(credential), credential === 'none');
  }

  /**
   * Resolves once a whole window (and the clock margin) has passed since the run's last request
   * with a failed credential: a window of the per-IP budget that such requests cannot have spent.
   */
  untilNoFailedCredential(): Promise<void> {
    return this.state.broker.untilFresh(FAILED_CREDENTIALS_BUCKET, true);
  }

  #bucket(credential: Credential): string {
    return bucketOfCredential(credential, this.run.keys);
  }
}
