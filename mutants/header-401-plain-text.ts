import { defineMutant } from './mutant.js';

/** The load balancer answers requests without a usable header itself, in its own words. */
export default defineMutant({
  description: 'answers a missing or malformed Authorization header with a plain-text 401 "Unauthorized"',
  breaks: { 'AUTH-7': 'fail', 'GEN-1': 'fail' },
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode !== 401 || typeof payload !== 'string' || payload.includes('"code"')) return payload;
      reply.header('content-type', 'text/plain; charset=utf-8');
      return 'Unauthorized';
    });
  },
});
