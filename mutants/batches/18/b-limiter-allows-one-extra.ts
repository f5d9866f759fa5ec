import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the limiter's check was written as `if (entry.used > ceiling) reject; used++`
 * instead of `>=`, with `remaining = ceiling - used` computed after the increment and never clamped.
 * Every window lets one request more than the ceiling through, and that extra request is answered
 * normally with `X-RateLimit-Remaining: -1`; only the one after it gets the 429. Nobody notices
 * because the unit test only checks that "eventually" a 429 comes.
 */
export default defineMutant({
  description:
    'The rate limiter lets ceiling + 1 requests through per window: the request after Remaining reaches 0 succeeds with X-RateLimit-Remaining: -1, and only the next one is refused with 429.',
  breaks: { 'RATE-2': 'fail', 'RATE-3': 'fail' },
  collateral: ['RATE-1', 'RATE-7', 'RATE-8'],
  modify: (reference) => {
    const { limiter } = reference.state;
    const faithful = limiter.hit.bind(limiter);
    limiter.hit = (bucket, ceiling) => {
      const window = faithful(bucket, ceiling + 1);
      return { ...window, limit: ceiling, remaining: window.exceeded ? 0 : window.remaining - 1 };
    };
  },
});
