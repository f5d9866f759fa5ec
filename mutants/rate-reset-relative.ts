import { defineMutant } from './mutant.js';

/** The GitHub-versus-IETF confusion: Reset as seconds until the reset, not a Unix time. */
export default defineMutant({
  description: 'X-RateLimit-Reset is the number of seconds until the window resets, not a Unix time',
  breaks: { 'RATE-2': 'fail' },
  modify: ({ behaviour }) => {
    behaviour.resetHeader = (resetAtMs, nowMs) => Math.ceil((resetAtMs - nowMs) / 1000);
  },
});
