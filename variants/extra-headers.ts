import { createHash, randomUUID } from 'node:crypto';
import { defineVariant } from './variant.js';

/**
 * A gateway-style set of response headers on every response: a strong ETag of the body, Vary on
 * the headers the answer depends on, a request id for support, and Cache-Control: no-store, since
 * the answers are per key.
 */
export default defineVariant({
  description: 'every response also carries ETag, Vary: Authorization, Accept, X-Request-Id and Cache-Control: no-store',
  openPoint: 'http-transport',
  atRisk: ['GEN-1', 'GEN-5', 'RATE-1', 'RATE-2', 'RATE-9', 'KEY-4'],
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      const body = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : '';
      reply.header('etag', `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`);
      reply.header('vary', 'Authorization, Accept');
      reply.header('x-request-id', randomUUID());
      reply.header('cache-control', 'no-store');
      return payload;
    });
  },
});
