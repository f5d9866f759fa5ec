import { defineVariant } from './variant.js';

/** No keep-alive: every response says Connection: close, and the server closes the connection after it. */
export default defineVariant({
  description: 'answers every request with Connection: close and closes the connection after the response (no keep-alive)',
  openPoint: 'http-transport',
  atRisk: ['GEN-1', 'GEN-3', 'RATE-8', 'KEY-2', 'KEY-5'],
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      // Node's HTTP server ends the connection after a response that carries this header.
      reply.header('connection', 'close');
      return payload;
    });
  },
});
