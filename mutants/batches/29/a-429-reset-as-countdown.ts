import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the mobile team shows a "try again in N s" banner when the API answers 429,
 * and their countdown was wrong on phones whose clocks drift, because it subtracted the device's
 * time from X-RateLimit-Reset. They ask for the reset "as seconds, like the IETF RateLimit draft".
 * The backend changes the 429 path only (the banner is only shown there) to send X-RateLimit-Reset
 * as the number of seconds left in the window, the same figure as Retry-After. Successful
 * responses keep the Unix time, so the dashboards and the happy-path tests look unchanged.
 */

export default defineMutant({
  description:
    'On 429 responses X-RateLimit-Reset holds the seconds left until the window resets (the same value as Retry-After) instead of the Unix time of the reset.',
  breaks: { 'RATE-2': 'fail' },
  collateral: ['RATE-4', 'RATE-5', 'RATE-6', 'RATE-7'],
  modify: (reference) => {
    reference.app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode !== 429) return payload;
      const wait = reply.getHeader('retry-after');
      if (wait !== undefined) reply.header('x-ratelimit-reset', String(wait));
      return payload;
    });
  },
});
