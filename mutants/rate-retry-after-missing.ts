import { defineMutant } from './mutant.js';

/** A proxy in front strips headers it does not know, Retry-After among them. */
export default defineMutant({
  description: '429 responses carry no Retry-After header',
  breaks: { 'RATE-4': 'fail', 'RATE-7': 'fail' },
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode === 429) reply.removeHeader('retry-after');
      return payload;
    });
  },
});
