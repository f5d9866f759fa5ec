import { defineVariant } from './variant.js';
import fromFirstRequest from './rate-window-from-first-request.js';

/**
 * X-RateLimit-Reset rounded down to the second: the Unix time, in whole seconds, of the second in
 * which the window ends. The reference rounds up, the second by which it has ended. The windows
 * open at each key's first request (`rate-window-from-first-request`), so that they end between
 * two seconds and the rounding shows: a client reading the Reset as the window's end is up to a
 * second early.
 */
export default defineVariant({
  description: 'sends X-RateLimit-Reset rounded down to the second in which the window ends (its windows open at the first request)',
  openPoint: 'reset-rounding',
  atRisk: ['RATE-2', 'RATE-3', 'RATE-5', 'RATE-6', 'RATE-7', 'RATE-8'],
  rateLimits: true,
  modify: (reference) => {
    fromFirstRequest.modify!(reference);
    reference.behaviour.resetHeader = (resetAtMs) => Math.floor(resetAtMs / 1000);
  },
});
