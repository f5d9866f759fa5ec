import { defineMutant } from './mutant.js';

/** A cached header: X-RateLimit-Remaining is computed once and never falls. */
export default defineMutant({
  description: 'X-RateLimit-Remaining always says one less than the limit, however many requests the key has made',
  breaks: { 'RATE-8': 'warn' },
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      const limit = reply.getHeader('x-ratelimit-limit');
      if (limit !== undefined && reply.statusCode !== 429) reply.header('x-ratelimit-remaining', String(Number(limit) - 1));
      return payload;
    });
  },
});
