import { defineMutant } from './mutant.js';

/** The limiter announces the wait as soon as the budget is spent, on the last accepted response. */
export default defineMutant({
  description: 'the response that spends the last request of a window (Remaining 0) already carries Retry-After',
  breaks: { 'RATE-9': 'warn' },
  modify: ({ app, state }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode !== 429 && reply.getHeader('x-ratelimit-remaining') === '0') {
        const reset = Number(reply.getHeader('x-ratelimit-reset'));
        reply.header('retry-after', String(Math.max(1, Math.ceil(reset - state.now() / 1000))));
      }
      return payload;
    });
  },
});
