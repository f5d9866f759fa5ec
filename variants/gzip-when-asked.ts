import { gzipSync } from 'node:zlib';
import { defineVariant } from './variant.js';

/**
 * Whether an Accept-Encoding value allows gzip (RFC 9110, 12.5.3): gzip (or x-gzip), else `*`,
 * with a q-value above 0. No header at all: the variant sends the body as it is, as common
 * servers do, although RFC 9110 would allow any coding then.
 */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (header === undefined) return false;
  let gzip: number | null = null;
  let any: number | null = null;
  for (const part of [header].flat().join(',').split(',')) {
    const [coding = '', ...params] = part.split(';').map((s) => s.trim());
    const q = params.find((p) => /^q\s*=/i.test(p));
    const weight = q ? Number(q.replace(/^q\s*=\s*/i, '')) : 1;
    const name = coding.toLowerCase();
    if (name === 'gzip' || name === 'x-gzip') gzip = weight;
    else if (name === '*') any = weight;
  }
  return (gzip ?? any ?? 0) > 0;
}

/** Responses are gzip-compressed when the request's Accept-Encoding allows gzip. */
export default defineVariant({
  description: 'compresses every response body with gzip when the request accepts gzip (Content-Encoding: gzip, Vary: Accept-Encoding)',
  openPoint: 'http-transport',
  atRisk: ['GEN-1', 'GEN-5', 'ERR-1', 'PAG-1', 'KEY-4'],
  modify: ({ app }) => {
    app.addHook('onSend', async (req, reply, payload) => {
      reply.header('vary', 'Accept-Encoding');
      const body = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : null;
      if (body === null || reply.statusCode === 204 || reply.statusCode === 304 || !acceptsGzip(req.headers['accept-encoding'])) return payload;
      reply.header('content-encoding', 'gzip');
      reply.removeHeader('content-length');
      return gzipSync(body);
    });
  },
});
