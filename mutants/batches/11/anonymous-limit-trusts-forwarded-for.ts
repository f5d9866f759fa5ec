import type { IncomingMessage } from 'node:http';
import { defineMutant } from '../../mutant.js';

/*
 * How this happens: behind the load balancer every request came from the balancer's address, so
 * all keyless clients shared one 20-a-minute budget. The fix was Fastify's `trustProxy: true`,
 * which trusts every hop: `req.ip` becomes the leftmost `X-Forwarded-For` entry, and the balancer
 * appends to a client's own header rather than replacing it. A client that writes its own
 * `X-Forwarded-For` picks the address its unauthenticated requests are counted against.
 */
export default defineMutant({
  description:
    'The per-IP budget for requests without an Authorization header is keyed by the leftmost X-Forwarded-For entry, so a client that varies that header is never limited.',
  breaks: { 'RATE-7': 'fail' },
  modify: (reference) => {
    const { app } = reference;
    // What `trustProxy: true` gives: the first address of X-Forwarded-For, else the socket's.
    const requestSymbol = Object.getOwnPropertySymbols(app).find((s) => s.description === 'fastify.Request');
    // A decoration keeps the instance's own request class in use (Fastify falls back to its base
    // class for an undecorated instance), so that the getter below applies.
    app.decorateRequest('forwardedFor', null);
    const RequestClass = (app as unknown as Record<symbol, { prototype: object }>)[requestSymbol!]!;
    Object.defineProperty(RequestClass.prototype, 'ip', {
      configurable: true,
      get(this: { raw: IncomingMessage }) {
        const forwarded = this.raw.headers['x-forwarded-for'];
        const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
        return first || this.raw.socket.remoteAddress;
      },
    });
  },
});
