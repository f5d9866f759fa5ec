import { defineMutant } from './mutant.js';
import { pathOf } from './support.js';

/** One route served by a service that does not run the rate-limit middleware's header step. */
export default defineMutant({
  description: 'picklist responses carry no X-RateLimit headers',
  breaks: { 'RATE-1': 'warn' },
  modify: ({ app }) => {
    app.addHook('onSend', async (req, reply, payload) => {
      if (/picklists/.test(pathOf(req)) && reply.statusCode !== 429) {
        for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) reply.removeHeader(name);
      }
      return payload;
    });
  },
});
