import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/*
 * How this happens: reads are served through a CDN path straight to the application, while
 * writes go through a cloud API gateway whose methods were configured with an authorizer whose
 * identity source is the Authorization header. When that header is absent (or empty), the gateway
 * answers by itself, before the application sees the request, with its stock
 * `403 {"message":"Missing Authentication Token"}`. Requests with any Authorization header are
 * passed on and the application answers them (401 authentication_error for bad keys), and the
 * per-IP limiter in front of both still counts and throttles anonymous traffic. Only the crossing
 * "no credential" x "write method" is wrong.
 */
export default defineMutant({
  description:
    'A POST/PUT/PATCH/DELETE under /api/ without an Authorization header is answered 403 {"message":"Missing Authentication Token"} instead of 401 authentication_error; GETs without the header, and writes with any (even bad) credential, are answered correctly.',
  breaks: { 'AUTH-1': 'fail', 'ERR-1': 'fail' },
  collateral: ['AUTH-2', 'AUTH-7', 'ERR-2', 'RATE-7'],
  modify: (reference) => {
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (reply.statusCode !== 401 || !WRITE_METHODS.has(req.method) || !pathOf(req).startsWith('/api/')) return payload;
      if ((req.headers.authorization ?? '').trim() !== '') return payload;
      reply.code(403);
      reply.header('content-type', 'application/json');
      return JSON.stringify({ message: 'Missing Authentication Token' });
    });
  },
});
