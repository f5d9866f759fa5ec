import { defineMutant } from '../../mutant.js';

/** Warm instances the service keeps (Cloud Run `--min-instances`), each with its own limiter. */
const INSTANCES = 3;

/*
 * How this happens: in the monolith the per-key limiter was an in-process Map, which was fine with
 * one process. The port to Cloud Run keeps the limiter module unchanged ("it is just middleware"),
 * and the service runs with --min-instances=3 to hide cold starts. Cloud Run's front end spreads
 * requests over the warm instances, so each instance counts only the requests it happens to serve:
 * a key really gets three times its ceiling before a 429, and X-RateLimit-Remaining steps down only
 * every third request. The limit for requests without a key moved to the gateway's per-IP rule and
 * still holds. A manual check (a few curls) shows plausible headers with Limit 100; the load test
 * that would have found it was run against a single local container.
 */
export default defineMutant({
  description:
    'Per-key rate counters live in each of three warm serverless instances that requests are spread over, so a key gets about 300 requests a minute and Remaining drops only every third request.',
  breaks: { 'RATE-3': 'fail', 'RATE-8': 'warn' },
  collateral: ['RATE-4', 'RATE-5', 'RATE-9'],
  modify: (reference) => {
    const { behaviour } = reference;
    const bucket = behaviour.rateBucket;
    let served = 0;
    // The instance the front end hands the request to: round robin over the warm ones.
    behaviour.rateBucket = (key, path) => `${bucket(key, path)}@instance-${served++ % INSTANCES}`;
  },
});
