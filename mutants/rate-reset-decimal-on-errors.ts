import { defineMutant } from './mutant.js';

/**
 * The error handler writes the rate headers from the limiter's own figures, and its window end is
 * in fractional seconds (`1764500000.25`): the success path rounds it, the error path does not.
 */
export default defineMutant({
  description: 'error responses other than 429 carry X-RateLimit-Reset as a decimal number of seconds',
  breaks: { 'RATE-1': 'warn' },
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      const reset = reply.getHeader('x-ratelimit-reset');
      if (reply.statusCode >= 400 && reply.statusCode !== 429 && reset !== undefined) reply.header('x-ratelimit-reset', `${Number(reset) - 1}.25`);
      return payload;
    });
  },
});
