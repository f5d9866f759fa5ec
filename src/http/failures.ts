import type { Exchange, TransportFailureKind } from './exchange.js';

/** A request `--read-only` does not send; the check that made it is left out (not_applicable 'read-only'). */
export class ReadOnlyRefusal extends Error {
  override readonly name = 'ReadOnlyRefusal';
}

/**
 * Failures that leave no trace of the API: nothing connected (refused, no connection within the
 * deadline, no such host, a TLS handshake that failed), or a front end answered for it. A reset counts too when no byte of a
 * response had arrived (see `TransportFailure.unanswered`).
 */
const SURROUNDINGS: ReadonlySet<TransportFailureKind> = new Set(['refused', 'connect_timeout', 'dns', 'tls', 'front-end']);

/**
 * The request got no complete response of the API. The target's doing or its surroundings',
 * never the suite's: a finding where the API answered in part or held the request past its
 * deadline, `error` where it never answered at all (`unanswered`).
 */
export class TransportFailure extends Error {
  override readonly name = 'TransportFailure';
  /** Some of a response (its headers) had arrived when the request failed. */
  readonly responseStarted: boolean;
  constructor(
    readonly kind: TransportFailureKind,
    message: string,
    readonly exchange: Exchange,
    options: { responseStarted?: boolean } = {},
  ) {
    super(message);
    this.responseStarted = options.responseStarted ?? false;
  }

  /**
   * The API gave no answer at all, so nothing about it can be judged from this request: the
   * check is `error` ("the target did not answer"), never `fail`. A timeout is not among them:
   * the target took the request and held it past its deadline (a hung handler), which is judged
   * as the target's answer, as is a body cut short or too large.
   */
  get unanswered(): boolean {
    return SURROUNDINGS.has(this.kind) || (this.kind === 'reset' && !this.responseStarted);
  }
}
