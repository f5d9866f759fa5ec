import { defineMutant } from '../../mutant.js';

/** The route's own counter, apart from the key's. */
const ROUTE_BUCKET = ':route:submissions';

/*
 * How this happens: per-key limits are enforced by Kong's rate-limiting plugin (limit by
 * credential), attached to the API's service. When a customer's nightly import kept hitting 429,
 * someone attached a second rate-limiting plugin instance to the /api/v1/submissions route with
 * `minute` set five times higher. A route-level plugin replaces the service-level one for that
 * route and keeps its own counters: submission requests now answer with X-RateLimit-Limit 500 and
 * a Remaining of their own, and do not spend the key's 100 a minute. Every other endpoint is
 * unchanged.
 */
export default defineMutant({
  description:
    "Requests to /api/v1/submissions are rate limited by a separate per-key counter with a ceiling five times the per-key limit (X-RateLimit-Limit: 500), instead of sharing the key's 100 a minute.",
  breaks: { 'RATE-2': 'fail' },
  collateral: ['RATE-3', 'RATE-8'],
  provokedBy: ['SUB'],
  modify: (reference) => {
    const { limiter, profile } = reference.state;
    const routeCeiling = profile.limits.perKeyPerMinute * 5;
    const route = '/api/v1/submissions';
    const faithfulBucket = reference.behaviour.rateBucket;
    reference.behaviour.rateBucket = (key, path) =>
      path === route || path.startsWith(`${route}/`) ? `${faithfulBucket(key, path)}${ROUTE_BUCKET}` : faithfulBucket(key, path);
    const hit = limiter.hit.bind(limiter);
    limiter.hit = (bucket: string, ceiling: number) => hit(bucket, bucket.endsWith(ROUTE_BUCKET) ? routeCeiling : ceiling);
  },
});
