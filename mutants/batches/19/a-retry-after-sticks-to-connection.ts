import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the rate-limit middleware keeps its per-client state on the connection
 * (`req.socket.rateState`), a habit from a gateway that opened one connection per client. The
 * header hook writes `Retry-After` whenever `rateState.retryAfter` is set; only the 429 path ever
 * sets it and nothing clears it. Once a kept-alive connection has carried a 429, every later
 * response on that connection (any key, any endpoint, a 200 after the window has reset) carries the
 * old Retry-After value. A fresh connection is clean.
 */
export default defineMutant({
  description:
    'After a 429, the Retry-After header sticks to the kept-alive connection: every later response on that connection, successes included, carries the stale Retry-After.',
  breaks: { 'RATE-9': 'warn' },
  collateral: ['RATE-5'],
  provokedBy: ['RATE'],
  modify: (reference) => {
    const rateState = new WeakMap<object, string>();
    reference.app.addHook('onSend', async (req, reply, payload) => {
      const socket = req.raw.socket;
      if (!socket) return payload;
      const own = reply.getHeader('retry-after');
      if (own !== undefined) rateState.set(socket, String(own));
      else {
        const left = rateState.get(socket);
        if (left !== undefined) reply.header('retry-after', left);
      }
      return payload;
    });
  },
});
