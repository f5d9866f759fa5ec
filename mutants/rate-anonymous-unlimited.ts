import { defineMutant } from './mutant.js';

/** The limiter sits behind authentication: requests without a key never reach it. */
export default defineMutant({
  description: 'requests without an Authorization header are neither counted nor limited (and carry no X-RateLimit headers)',
  breaks: { 'RATE-7': 'fail' },
  modify: ({ app, state }) => {
    const hit = state.limiter.hit.bind(state.limiter);
    state.limiter.hit = (bucket, ceiling) =>
      bucket.startsWith('ip:') ? { limit: ceiling, remaining: ceiling, resetAtMs: 0, exceeded: false } : hit(bucket, ceiling);
    app.addHook('onSend', async (req, reply, payload) => {
      if (req.headers.authorization === undefined)
        for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) reply.removeHeader(name);
      return payload;
    });
  },
});
