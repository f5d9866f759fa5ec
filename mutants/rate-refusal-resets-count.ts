import { defineMutant } from './mutant.js';

/**
 * A limiter that starts a key's count afresh once it has refused a request: the key works again
 * at once, while Retry-After and X-RateLimit-Reset still name the window's end.
 */
export default defineMutant({
  description: 'after one 429 the key is accepted again within the same window, though Retry-After says to wait for its end',
  breaks: { 'RATE-3': 'fail' },
  // Remaining climbs back from 0 within the window the 429 named.
  collateral: ['RATE-8'],
  modify: ({ state }) => {
    const hit = state.limiter.hit.bind(state.limiter);
    state.limiter.hit = (bucket, ceiling) => {
      const window = hit(bucket, ceiling);
      if (window.exceeded) state.limiter.forget(bucket);
      return window;
    };
  },
});
