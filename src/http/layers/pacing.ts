import { whileWaiting } from '../../clock.js';
import { knownToFail } from '../exchange.js';
import type { Layer } from '../layer.js';

/**
 * What a request with a failed credential (malformed, unknown, revoked) asks `acquire` for: no
 * budget of the run's, until the target shows that it counts such requests against its per-IP
 * budget (`Pacer.observeFailed`); from then on, the budget of requests without a key.
 */
export const FAILED_CREDENTIAL_PACING = 'failed-credential-pacing';

/** Resolves when the bucket's rate-limit budget allows one more request (the run's broker or a pacer). */
export type Acquire = (bucket: string, anonymous: boolean) => Promise<void>;

/**
 * Waits for the budget of the request's key before it leaves, unless the request says `pace: false`.
 * A failed credential has no budget of its own: the pacer paces it where the target counts it.
 */
export function pacing(acquire: Acquire): Layer {
  return (next) => async (request) => {
    if (request.spec.pace !== false && !request.acquired) {
      await whileWaiting(() => acquire(knownToFail(request.auth) ? FAILED_CREDENTIAL_PACING : request.bucket, request.auth === 'none'));
    }
    return next(request);
  };
}
