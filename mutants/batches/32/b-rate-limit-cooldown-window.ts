import { defineMutant } from '../../mutant.js';
import type { WindowState } from '../../../reference/rate-limit.js';

/*
 * How this happens: after a customer's runaway script hammered the API, the team added a
 * fail2ban-style cool-down: a key that hits its ceiling sits out the whole next window as well.
 * The cool-down lives in the limiter, but the 429 builder still computes Retry-After and
 * X-RateLimit-Reset from the limiter's current window, so a throttled client is told to come back
 * at the end of this window, does so, and is refused again for one more window. Keys that never
 * reach their ceiling see no difference.
 */
export default defineMutant({
  description: 'A key that reaches its rate ceiling is also refused for the whole following window, while its 429 says to retry at the end of the current one.',
  breaks: { 'RATE-5': 'warn' },
  collateral: ['RATE-8'],
  modify: (reference) => {
    const { limiter } = reference.state;
    const hit = limiter.hit.bind(limiter);
    /** Bucket -> the reset time of the window its cool-down ends with. */
    const coolDownUntil = new Map<string, number>();
    limiter.hit = (bucket: string, ceiling: number): WindowState => {
      const window = hit(bucket, ceiling);
      if (!bucket.startsWith('key:')) return window;
      const until = coolDownUntil.get(bucket);
      const coolingDown = until !== undefined && window.resetAtMs <= until;
      if (window.exceeded) {
        if (!coolingDown) coolDownUntil.set(bucket, window.resetAtMs + limiter.windowMs);
        return window;
      }
      if (coolingDown) return { limit: window.limit, remaining: 0, resetAtMs: window.resetAtMs, exceeded: true };
      return window;
    };
  },
});
