import { defineVariant } from './variant.js';
import { skewClock } from './support/clock.js';

/**
 * A server whose clock is 90 s behind the client's (a host or a CI runner that lost NTP): every Unix
 * time it sends, and its Date headers, are on its own clock. The suite reads them there.
 */
export default defineVariant({
  description: "runs on a clock 90 s behind the client's: X-RateLimit-Reset, the last-use times and the Date header are all on it",
  openPoint: 'server-clock',
  atRisk: ['RATE-2', 'RATE-3', 'RATE-5', 'RATE-6', 'RATE-7', 'RATE-8'],
  rateLimits: true,
  modify: (reference) => skewClock(reference, -90_000),
});
