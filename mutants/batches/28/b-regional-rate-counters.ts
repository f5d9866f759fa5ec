import { defineMutant } from '../../mutant.js';

/*
 * How this happens: records and submissions are served only from the region that holds the
 * account's data (data residency), while every other endpoint is served active-active from the
 * region nearest the caller. Each region's gateway runs its own per-key limiter; the plan was to
 * gossip the counters between regions, but the sync runs every few minutes and only feeds a
 * dashboard. A key that stays on one kind of endpoint is limited correctly, with X-RateLimit-*
 * headers that look right; a key that mixes records/submissions with workspaces, keys or
 * taxonomies in one minute gets 100 requests in each region, and its Remaining jumps back up each
 * time its traffic moves from one region to the other.
 */
export default defineMutant({
  description:
    "Requests to records and submissions are counted in a different region's rate-limit counter than all other endpoints, so one key gets up to 200 requests a minute when it mixes them and X-RateLimit-Remaining jumps back up between them.",
  breaks: { 'RATE-3': 'fail', 'RATE-8': 'warn' },
  collateral: [],
  provokedBy: ['PAG', 'SUB'],
  modify: (reference) => {
    const faithful = reference.behaviour.rateBucket;
    reference.behaviour.rateBucket = (key, path) => {
      const dataPlane = path.startsWith('/api/v1/records') || path.startsWith('/api/v1/submissions');
      return `${faithful(key, path)}@${dataPlane ? 'eu-west' : 'us-east'}`;
    };
  },
});
