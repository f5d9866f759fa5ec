import { defineMutant } from '../../mutant.js';

/*
 * How this happens: usage metering for invoices counts API calls per account, because plans are
 * sold per account ("100 requests a minute on Starter"). To keep the throttle and the invoice in
 * agreement, the limiter's bucket is changed from the key to the account on every metered route.
 * The key-management routes are not metered (billing does not charge for them), so they keep the
 * old per-key middleware. Every test the team runs uses one key per account, where the two are the
 * same; only when one key of an account is exhausted do the other keys of that account start
 * getting 429 on the data endpoints too.
 */
export default defineMutant({
  description:
    'The per-minute ceiling is counted per account on every metered (non key-management) endpoint, so exhausting one key throttles all other keys of the same account.',
  breaks: { 'RATE-6': 'fail' },
  collateral: ['RATE-5', 'RATE-8'],
  modify: (reference) => {
    const faithful = reference.behaviour.rateBucket;
    reference.behaviour.rateBucket = (key, path) => (path.startsWith('/api/v1/api_keys') ? faithful(key, path) : `plan:${key.accountId}`);
  },
});
