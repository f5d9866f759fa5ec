import type { FastifyReply, FastifyRequest } from 'fastify';
import { defineMutant } from '../../mutant.js';

/*
 * How this happens: browser integrations asked for CORS, so the vendor registered a CORS plugin
 * with its defaults, first in the chain as its README advises (a preflight must be answered before
 * authentication, since browsers send it without credentials). Its defaults include a strict
 * preflight mode: any OPTIONS request that lacks `Origin` or `Access-Control-Request-Method` is
 * answered by the plugin itself with a plain-text `400 Invalid Preflight Request`, never reaching
 * the API's 401 or its JSON 405 for an unsupported method.
 */
export default defineMutant({
  description:
    'An OPTIONS request that is not a complete CORS preflight gets a text/plain "400 Invalid Preflight Request" from the CORS layer, before authentication, instead of a JSON error.',
  breaks: { 'GEN-1': 'fail' },
  collateral: ['GEN-5', 'ERR-1', 'AUTH-1', 'AUTH-7'],
  modify: (reference) => {
    const { app } = reference;
    // The plugin's hook runs before authentication (it was registered before it). Route contexts
    // copy the instance's hooks only when the server gets ready, so placing it just before the
    // authentication hook (the last onRequest hook so far) now is the same as registering it first.
    const hooksSymbol = Object.getOwnPropertySymbols(app).find((s) => s.description === 'fastify.hooks');
    const hooks = (app as unknown as Record<symbol, { onRequest: unknown[] }>)[hooksSymbol!]!;
    hooks.onRequest.splice(hooks.onRequest.length - 1, 0, async function handleCors(req: FastifyRequest, reply: FastifyReply) {
      reply.header('access-control-allow-origin', '*');
      if (req.raw.method !== 'OPTIONS') return;
      if (!req.headers.origin || !req.headers['access-control-request-method']) {
        return reply.status(400).type('text/plain').send('Invalid Preflight Request');
      }
      reply.header('access-control-allow-methods', 'GET,HEAD,PUT,PATCH,POST,DELETE');
      reply.header('vary', 'Access-Control-Request-Headers');
      const requested = req.headers['access-control-request-headers'];
      if (requested !== undefined) reply.header('access-control-allow-headers', requested);
      return reply.code(204).header('content-length', '0').send();
    });
  },
});
