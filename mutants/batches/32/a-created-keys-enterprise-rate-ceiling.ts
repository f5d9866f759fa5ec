import { defineMutant } from '../../mutant.js';

/*
 * How this happens: per-key rate ceilings moved from a global setting into a
 * `rate_limit_per_minute` column of the keys table, so that sales can raise one customer's limit.
 * The migration backfilled every existing key with the documented 100. But the column was
 * declared with the Enterprise tier's value (ten times as much) as its DB default, and the
 * create-key insert does not set the column. Keys that existed at deploy time (the owner's key)
 * keep 100 a minute. Every key created through the API afterwards gets ten times the ceiling,
 * and that is also what its X-RateLimit-Limit says.
 */
export default defineMutant({
  description:
    'Keys created through POST /api/v1/api_keys get ten times the documented per-key ceiling (X-RateLimit-Limit 1000, no 429 after 100 requests); only keys that existed before keep 100 a minute.',
  breaks: { 'RATE-2': 'fail', 'RATE-3': 'fail' },
  collateral: ['RATE-4', 'RATE-5', 'RATE-6'],
  modify: (reference) => {
    const { store, limiter } = reference.state;
    // The limiter buckets of keys issued after start-up (the seeded keys exist before `modify`).
    const issuedLater = new Set<string>();
    const create = store.createKey.bind(store);
    store.createKey = (account, name) => {
      const created = create(account, name);
      issuedLater.add(`key:${created.record.id}`);
      return created;
    };
    const hit = limiter.hit.bind(limiter);
    limiter.hit = (bucket, ceiling) => hit(bucket, issuedLater.has(bucket) ? ceiling * 10 : ceiling);
  },
});
