import { defineMutant } from '../../mutant.js';

/*
 * How this happens: per-key usage quotas (a monthly request allowance that depends on the plan)
 * are added, and the per-minute ceiling is folded into the same quota engine as one more plan
 * quota, `requests_per_minute`. The engine raises `PlanLimitExceeded` for any quota it finds
 * spent, and the API maps that error, like every other plan limit, to 422 `plan_limit_exceeded`
 * with code `limit_exceeded` and the quota's name in `param`; plan errors carry no Retry-After.
 * Only the anonymous per-IP limit, still enforced by the old limiter, keeps answering 429. The
 * quota tests checked that the request was refused, not how.
 */
export default defineMutant({
  description:
    'A key that exceeds its per-minute ceiling gets 422 plan_limit_exceeded (code limit_exceeded, param requests_per_minute, no Retry-After) instead of 429 rate_limit_error, on reads as on writes.',
  breaks: { 'RATE-3': 'fail', 'ERR-6': 'fail' },
  collateral: ['RATE-4', 'RATE-5', 'RATE-6', 'PAG-7', 'PAG-8', 'RES-4', 'RES-7'],
  modify: (reference) => {
    const perMinute = reference.state.profile.limits.perKeyPerMinute;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      // With an Authorization header, a 429 can only be a key's own ceiling.
      if (reply.statusCode !== 429 || req.headers.authorization === undefined) return payload;
      reply.code(422);
      reply.removeHeader('retry-after');
      return JSON.stringify({
        error: {
          type: 'plan_limit_exceeded',
          code: 'limit_exceeded',
          message: `Your plan allows ${perMinute} requests per minute per API key.`,
          param: 'requests_per_minute',
          path: null,
        },
      });
    });
  },
});
