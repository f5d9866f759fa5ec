import { defineMutant } from '../../mutant.js';

/*
 * How this happens: brute-force protection was added as an anomaly detector ("one IP cycling
 * through many keys") that records every authenticated request per source IP in the shared
 * rate-limit store. Its counter was named `ip:<address>`, the very key the existing limiter for
 * requests without an Authorization header reads. Keyed requests are never refused by it, so
 * nothing looks wrong, but every valid-key request from an address spends that address's
 * anonymous budget of 20 a minute, and a header-less request after some keyed traffic gets an
 * early 429.
 */
export default defineMutant({
  description:
    "Every request made with a valid key is counted against its IP address's unauthenticated budget, so requests without an Authorization header are throttled early after keyed traffic from the same address.",
  breaks: { 'RATE-7': 'fail' },
  collateral: ['AUTH-1', 'AUTH-7'],
  modify: (reference) => {
    const { limiter, profile } = reference.state;
    // Registered after the reference's authentication hook: it sees only requests whose key authenticated.
    reference.app.addHook('onRequest', async (req) => {
      if (!req.url.startsWith('/api/') || req.headers.authorization === undefined) return;
      limiter.hit(`ip:${req.ip}`, profile.limits.unauthenticatedPerMinute);
    });
  },
});
