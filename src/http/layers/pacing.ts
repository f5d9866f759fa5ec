import type { Layer } from '../layer.js';

/** Resolves when the bucket's rate-limit budget allows one more request (the run's broker or a pacer). */
export type Acquire = (bucket: string, anonymous: boolean) => Promise<void>;

/** Waits for the budget of the request's key before it leaves, unless the request says `pace: false`. */
export function pacing(acquire: Acquire): Layer {
  return (next) => async (request) => {
    if (request.spec.pace !== false && !request.acquired) await acquire(request.bucket, request.auth === 'none');
    return next(request);
  };
}
