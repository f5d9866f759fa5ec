import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the per-IP limiter is a middleware mounted in front of everything, and it
 * counts every request from an address; only the check that refuses (429) was later made
 * conditional on the request having no Authorization header, so that integrations would not be
 * throttled by their own IP. The counting was left unconditional: a client that has made 20
 * keyed requests in a minute gets 429 on its very first request without a header.
 */
export default defineMutant({
  description:
    'Requests made with a valid key also count against the per-IP budget for unauthenticated requests, so after 20 keyed requests in a window the first request with no Authorization header is 429 instead of 401.',
  breaks: { 'RATE-7': 'fail' },
  collateral: ['AUTH-1', 'AUTH-7'],
  modify: (reference) => {
    const { state } = reference;
    // Runs after the reference's authentication: only requests it let through get here.
    reference.app.addHook('onRequest', async (req) => {
      if (req.headers.authorization === undefined || !req.apiKey) return;
      state.limiter.hit(`ip:${req.ip}`, state.profile.limits.unauthenticatedPerMinute);
    });
  },
});
