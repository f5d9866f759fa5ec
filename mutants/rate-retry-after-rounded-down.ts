import { defineMutant } from './mutant.js';

/** Integer division: the wait is rounded down, so a client that obeys retries too early. */
export default defineMutant({
  description: 'Retry-After (and the wait the message states) is rounded down: it says 0 when under a second remains',
  breaks: { 'RATE-5': 'warn' },
  modify: ({ behaviour }) => {
    behaviour.retryAfterSeconds = (resetAtMs, nowMs) => Math.floor((resetAtMs - nowMs) / 1000);
  },
});
