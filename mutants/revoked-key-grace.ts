import { defineMutant } from './mutant.js';

/** Authentication results are cached for a few seconds, so a deleted key keeps working a while. */
export default defineMutant({
  description: 'keeps accepting a deleted key for 5 seconds (an authentication cache)',
  breaks: { 'KEY-5': 'fail', 'AUTH-3': 'fail' },
  modify: ({ behaviour }) => {
    behaviour.revokedGraceMs = 5_000;
  },
});
