import { defineMutant } from './mutant.js';

/** One counter per IP in front of authentication: every request counts, a valid key's too. */
export default defineMutant({
  description: 'the per-IP budget for requests without a key also counts requests made with a valid key',
  breaks: { 'RATE-7': 'fail' },
  modify: ({ app, state }) => {
    app.addHook('onRequest', async (req) => {
      if (req.headers.authorization !== undefined) state.limiter.hit(`ip:${req.ip}`, state.profile.limits.unauthenticatedPerMinute);
    });
  },
});
