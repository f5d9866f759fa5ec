import { defineMutant } from './mutant.js';

/** `Date` arithmetic left in milliseconds: Reset is a Unix time, but in ms. */
export default defineMutant({
  description: 'X-RateLimit-Reset is sent as a Unix time in milliseconds',
  breaks: { 'RATE-2': 'fail' },
  modify: ({ behaviour }) => {
    behaviour.resetHeader = (resetAtMs) => resetAtMs;
  },
});
