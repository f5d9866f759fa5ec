import { defineMutant } from '../../mutant.js';

/*
 * How this happens: during a backlog-replay incident one customer minted dozens of API keys and
 * spread its replay across them, getting many times the documented budget and starving the
 * shared workers. The emergency patch changed the limiter's bucket from the key's id to the key's
 * account id ("one budget per customer, whatever they do"), shipped in the middle of the night and
 * never reverted. Every key of an account now draws from one budget of 100 a minute: exhausting
 * one key throttles all its sibling keys, which the document rules out (limits are per key).
 */
export default defineMutant({
  description: 'The per-key rate limit is counted per account: all API keys of an account share one budget of 100 requests a minute.',
  breaks: { 'RATE-6': 'fail' },
  collateral: ['RATE-5', 'RATE-8', 'KEY-1', 'KEY-2', 'KEY-7'],
  modify: (reference) => {
    reference.behaviour.rateBucket = (key) => `account:${key.accountId}`;
  },
});
