import { defineMutant } from './mutant.js';

/** A hand-rolled serializer that forgets the media type. */
export default defineMutant({
  description: 'labels its JSON responses text/plain',
  breaks: { 'GEN-5': 'warn' },
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      if (String(reply.getHeader('content-type') ?? '').startsWith('application/json')) reply.header('content-type', 'text/plain; charset=utf-8');
      return payload;
    });
  },
});
