import { defineVariant } from './variant.js';

/*
 * IIS and the ASP.NET stacks behind it answered every HTTP/1.1 request that carries content with an
 * interim `100 Continue` first, asked for or not, and a proxy may relay a backend's. RFC 9110 §15.2:
 * a client must parse 1xx responses it did not ask for; the final answer after it is the answer.
 */
export default defineVariant({
  description: 'sends an interim 100 (Continue) before the answer to every request that carries content, without being asked',
  openPoint: 'http-transport',
  atRisk: ['GEN-1', 'GEN-3', 'KEY-1', 'KEY-2', 'RES-1'],
  modify: ({ app }) => {
    app.addHook('onRequest', async (req, reply) => {
      // Node's server writes the interim head at once, before the handler's answer.
      if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) reply.raw.writeContinue();
    });
  },
});
