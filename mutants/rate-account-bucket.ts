import { defineMutant } from './mutant.js';

/** Limits counted per account (per tenant) instead of per key. */
export default defineMutant({
  description: 'every key of an account spends one shared budget, so one exhausted key throttles the others',
  breaks: { 'RATE-6': 'fail' },
  modify: ({ behaviour }) => {
    behaviour.rateBucket = (key) => `account:${key.accountId}`;
  },
});
