import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the rate-limit counters were moved from a table to Redis (`INCR` + `EXPIRE`
 * in one pipeline) so that a request costs one round trip. The pipeline also returns the counter's
 * `TTL`, and the developer, copying the header code of a popular rate-limit plugin, wrote that TTL
 * straight into X-RateLimit-Reset instead of reading the clock to add it. Retry-After is computed
 * from the same TTL and is right; X-RateLimit-Reset is now the number of seconds left in the window
 * (1 to 60) rather than the Unix time at which the window resets.
 */
export default defineMutant({
  description: 'X-RateLimit-Reset carries the seconds left in the window (a TTL such as 37) instead of the Unix time at which the window resets.',
  breaks: { 'RATE-2': 'fail' },
  collateral: ['RATE-5', 'RATE-7'],
  modify: (reference) => {
    reference.behaviour.resetHeader = (resetAtMs, nowMs) => Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000));
  },
});
