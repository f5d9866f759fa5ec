import { Readable } from 'node:stream';
import { defineVariant } from './variant.js';

/** Pieces of a body as a stream writes them. */
function* pieces(body: Buffer, size: number): Generator<Buffer> {
  for (let start = 0; start < body.length; start += size) yield body.subarray(start, start + size);
}

/**
 * Bodies are streamed as they are written, in pieces, with Transfer-Encoding: chunked and no
 * Content-Length, as a server that serialises a page row by row does.
 */
export default defineVariant({
  description: 'streams every response body with Transfer-Encoding: chunked (in 1 KiB pieces) and no Content-Length',
  openPoint: 'http-transport',
  atRisk: ['GEN-1', 'GEN-5', 'ERR-1', 'PAG-1', 'KEY-1', 'KEY-4'],
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      const body = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : null;
      if (body === null || body.length === 0 || reply.statusCode === 204 || reply.statusCode === 304) return payload;
      reply.removeHeader('content-length');
      return Readable.from(pieces(body, 1024), { objectMode: false });
    });
  },
});
