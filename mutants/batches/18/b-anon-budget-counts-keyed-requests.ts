import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the per-IP counter for anonymous traffic used to sit in the "no Authorization
 * header" branch of the authentication middleware. During a refactor the counting was moved into a
 * global request hook keyed by client IP ("count every request, it's cheap"), while the rejection
 * stayed in the anonymous branch. Every request from an IP, including those made with a valid key,
 * now spends the 20-a-minute anonymous budget, so a client that has just made a few dozen
 * authenticated calls gets 429 on its first request without a header.
 */
export default defineMutant({
  description:
    'Requests that carry an Authorization header (valid keys included) are counted against the per-IP budget for unauthenticated requests, so anonymous requests get 429 early after keyed traffic from the same IP.',
  breaks: { 'RATE-7': 'fail' },
  collateral: ['AUTH-1', 'AUTH-7', 'ERR-1', 'ERR-2'],
  modify: (reference) => {
    const { state } = reference;
    // Registered after the reference's own hook: runs once authentication has let the request through.
    reference.app.addHook('onRequest', async (req, reply) => {
      if (!req.url.startsWith('/api/') || req.headers.authorization === undefined || reply.sent) return;
      state.limiter.hit(`ip:${req.ip}`, state.profile.limits.unauthenticatedPerMinute);
    });
  },
});
