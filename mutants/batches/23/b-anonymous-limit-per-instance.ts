import { defineMutant } from '../../mutant.js';

/** Instances the autoscaler keeps behind the round-robin load balancer. */
const INSTANCES = 3;

/*
 * How this happens: per-key limits live in the shared Redis, but the per-IP limit for requests
 * without credentials was added later as an in-process middleware with the library's default
 * memory store. Since the service was autoscaled to three instances behind a round-robin load
 * balancer, each instance counts only the anonymous requests it happens to receive, so one IP gets
 * twenty a minute per instance: sixty before the first 429. Every 429 that does come is correct.
 */
export default defineMutant({
  description:
    'Requests without an Authorization header are counted per instance of a three-instance fleet answering in turn, so an IP address gets 60 anonymous requests a minute instead of 20 before a 429.',
  breaks: { 'RATE-7': 'fail' },
  collateral: [],
  modify: (reference) => {
    const { limiter } = reference.state;
    const hit = limiter.hit.bind(limiter);
    let anonymous = 0;
    limiter.hit = (bucket, ceiling) => {
      if (!bucket.startsWith('ip:')) return hit(bucket, ceiling);
      const instance = anonymous++ % INSTANCES;
      return hit(`${bucket}@instance-${instance}`, ceiling);
    };
  },
});
