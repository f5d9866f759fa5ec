import type { ReferenceApp } from '../../reference/server.js';
import type { WindowState } from '../../reference/rate-limit.js';

/**
 * What a rate-limit algorithm says about one request: the reference's `WindowState`, and for a
 * refusal, when the next request would be accepted (`retryAtMs`), where that is sooner than the
 * reset the headers name (a token bucket frees one token long before it is full again).
 */
export interface Decision extends WindowState {
  readonly retryAtMs?: number;
}

/** One algorithm: counts a request of `bucket` at local time `nowMs` against `ceiling` a window. */
export type Algorithm = (bucket: string, ceiling: number, nowMs: number) => Decision;

/**
 * Replaces the reference limiter's algorithm (per key, and per IP address for requests without a
 * key). The reference still writes the headers from what `hit` answers: X-RateLimit-Reset from
 * `resetAtMs` (Unix seconds, rounded up), and on a 429 Retry-After and the message's wait from
 * `retryAtMs` (else `resetAtMs`), in whole seconds rounded up.
 */
export function installAlgorithm(reference: ReferenceApp, make: (windowMs: number) => Algorithm): void {
  const { state, behaviour } = reference;
  const algorithm = make(state.limiter.windowMs);
  // The reference computes the 429's wait right after `hit`, synchronously, in the same request.
  let retryAtMs: number | null = null;
  state.limiter.hit = (bucket, ceiling) => {
    const decision = algorithm(bucket, ceiling, state.now());
    retryAtMs = decision.exceeded && decision.retryAtMs !== undefined ? decision.retryAtMs : null;
    return { limit: decision.limit, remaining: decision.remaining, resetAtMs: decision.resetAtMs, exceeded: decision.exceeded };
  };
  const retryAfterSeconds = behaviour.retryAfterSeconds;
  behaviour.retryAfterSeconds = (resetAtMs, nowMs) => {
    const at = retryAtMs ?? resetAtMs;
    retryAtMs = null;
    return retryAfterSeconds(at, nowMs);
  };
}
