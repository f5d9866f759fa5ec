import { defineMutant } from './mutant.js';

/** A debugging header left on in production echoes the key that made the request. */
export default defineMutant({
  description: 'echoes the presented API key in an X-Api-Key response header',
  breaks: { 'KEY-4': 'fail' },
  modify: ({ app }) => {
    app.addHook('onSend', async (req, reply, payload) => {
      const header = req.headers.authorization;
      if (header?.toLowerCase().startsWith('bearer ')) reply.header('x-api-key', header.slice(7).trim());
      return payload;
    });
  },
});
