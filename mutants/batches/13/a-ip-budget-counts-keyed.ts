import { defineMutant } from '../../mutant.js';
import { beforeReference } from '../../support.js';

/*
 * How this happens: the edge proxy increments the per-IP counter for every request it sees, and
 * only the decision to enforce it looks at whether an Authorization header is present. An
 * integration that makes a few dozen keyed calls from one host and then sends a request without a
 * header (a health probe, a misconfigured client) gets 429 long before its 20 unauthenticated
 * requests are spent.
 */
export default defineMutant({
  description:
    'Requests made with a key are counted against the per-IP budget of unauthenticated requests, so a request without a header from a busy IP is throttled early.',
  breaks: { 'RATE-7': 'fail' },
  collateral: ['AUTH-1', 'AUTH-7', 'GEN-1', 'ERR-1'],
  modify: (reference) => {
    const { state } = reference;
    beforeReference(reference, (req) => {
      if (!req.url?.startsWith('/api/') || req.headers.authorization === undefined) return;
      state.limiter.hit(`ip:${req.socket.remoteAddress}`, state.profile.limits.unauthenticatedPerMinute);
    });
  },
});
