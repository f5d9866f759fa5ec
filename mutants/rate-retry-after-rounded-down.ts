import { defineMutant } from './mutant.js';

/**
 * Integer division, and the second under way left out: the wait is rounded down and then one
 * second short, so a client that obeys retries one to two seconds early. Rounded down alone, the
 * wait is short by the fraction of a second left, which the run cannot tell from transit when it
 * is a few milliseconds (some 2 % of runs, where the refusal falls just after a whole second of the
 * window): the kill matrix would then see it survive by chance.
 */
export default defineMutant({
  description: 'Retry-After (and the wait the message states) is rounded down and one second short: it says 0 when under two seconds remain',
  breaks: { 'RATE-5': 'warn' },
  modify: ({ behaviour }) => {
    behaviour.retryAfterSeconds = (resetAtMs, nowMs) => Math.max(0, Math.floor((resetAtMs - nowMs) / 1000) - 1);
  },
});
