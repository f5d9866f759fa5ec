import { ReadOnlyRefusal } from '../failures.js';
import type { Layer } from '../layer.js';
import { isSafeMethod } from '../methods.js';

/**
 * `--read-only`: refuses, before sending, any request that could change the target (a method
 * other than GET, HEAD or OPTIONS) or that means to exhaust its rate limit (`expect429`). The
 * guard holds whatever a check declares.
 */
export const readOnlyGuard: Layer = (next) => async (request) => {
  if (!isSafeMethod(request.method) || request.spec.expect429) {
    const why = request.spec.expect429 ? ' meant to exhaust the rate limit' : '';
    throw new ReadOnlyRefusal(`${request.method} ${request.spec.path}${why} is not sent with --read-only`);
  }
  return next(request);
};
