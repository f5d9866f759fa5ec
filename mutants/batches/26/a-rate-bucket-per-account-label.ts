import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the rate limiter was moved into the new metrics middleware, which keeps its
 * counters in the same Redis store as the request metrics and keys them by the same label set.
 * A week after launch the per-key label blew up the metrics backend's cardinality (every CI job
 * creates throw-away keys), and compliance had also asked to keep key ids out of telemetry, so
 * the label was narrowed to the account. The limiter's bucket went with it: all keys of an account
 * now share one budget of 100 requests a minute. With one key per account, which is how every test
 * and demo is set up, nothing changes.
 */
export default defineMutant({
  description: "Rate limits are counted per account instead of per key, so exhausting one of an account's keys throttles every other key of the same account.",
  breaks: { 'RATE-6': 'fail' },
  collateral: ['RATE-3', 'RATE-5', 'RATE-8', 'KEY-1', 'KEY-2', 'KEY-7'],
  modify: (reference) => {
    reference.behaviour.rateBucket = (key) => `acct:${key.accountId}`;
  },
});
