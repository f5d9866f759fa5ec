import { defineMutant } from './mutant.js';

/**
 * A limiter moved to the account on one route only (a plan metered on its busiest list), each key
 * keeping its own budget on the others: a key's requests spread over the routes are counted in
 * two buckets and cross its ceiling unrefused, and a burst on that route throttles the account's
 * other keys. Written from a fault of a hidden batch (metering per account on the data routes).
 */
export default defineMutant({
  description: 'counts the workspace list against one budget of the account, and every other route against the key',
  breaks: { 'RATE-6': 'fail' },
  // The burst over several routes crosses the ceiling unrefused; RATE-8 may see a key's Remaining
  // move by route, and RATE-5 is judged on the burst on one route.
  collateral: ['RATE-3', 'RATE-5', 'RATE-8'],
  modify: ({ behaviour }) => {
    const faithful = behaviour.rateBucket;
    behaviour.rateBucket = (key, path) => (path === '/api/v1/workspaces' ? `account:${key.accountId}` : faithful(key, path));
  },
});
