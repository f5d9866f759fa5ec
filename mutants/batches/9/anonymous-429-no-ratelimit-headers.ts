import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the per-IP limit for requests without credentials is enforced at the edge
 * (an nginx `limit_req` zone) with a custom 429 page that sets Retry-After, while the
 * X-RateLimit-* headers are added by the application's own limiter, which only ever sees
 * authenticated traffic. The anonymous 429 therefore carries Retry-After but no X-RateLimit-*.
 */
export default defineMutant({
  description: 'The 429 for requests without an Authorization header carries Retry-After but none of the X-RateLimit-Limit/Remaining/Reset headers.',
  breaks: { 'RATE-4': 'fail' },
  collateral: ['RATE-7'],
  modify: (reference) => {
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (reply.statusCode === 429 && req.headers.authorization === undefined) {
        reply.removeHeader('x-ratelimit-limit');
        reply.removeHeader('x-ratelimit-remaining');
        reply.removeHeader('x-ratelimit-reset');
      }
      return payload;
    });
  },
});
