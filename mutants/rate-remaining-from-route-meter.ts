import { defineMutant } from './mutant.js';
import { pathOf } from './support.js';

/**
 * The catalogue's routes set X-RateLimit-Remaining from a meter of their own (a service behind the
 * gateway counts the calls it serves, per key and window), while the gateway enforces the key's
 * budget over all its requests: the ceiling holds, but a key's Remaining jumps back up each time
 * its requests move to the catalogue. Written apart from a fault of a hidden batch (two counters
 * of a key, by region and route group): a key counted, as its headers tell, in two budgets.
 */
export default defineMutant({
  description: "taxonomy and field responses carry the Remaining of a meter of those routes alone, while the key's budget counts all its requests",
  breaks: { 'RATE-8': 'warn' },
  // The explorer's key reads every list in turn, one request after another (KEY), after requests
  // of its own on other routes: whatever the machine's load, its taxonomies read rises. The pool's
  // keys, carrying PAG's walks, meet it too, as the interleaving falls.
  provokedBy: ['KEY', 'PAG'],
  modify: ({ app }) => {
    const served = new Map<string, number>();
    app.addHook('onSend', async (req, reply, payload) => {
      const key = req.headers.authorization;
      const reset = reply.getHeader('x-ratelimit-reset');
      const limit = Number(reply.getHeader('x-ratelimit-limit'));
      if (key === undefined || reset === undefined || !Number.isInteger(limit) || reply.statusCode === 429) return payload;
      if (!/^\/api\/v1\/(taxonomies|fields)/.test(pathOf(req))) return payload;
      const meter = `${key} ${String(reset)}`;
      served.set(meter, (served.get(meter) ?? 0) + 1);
      reply.header('x-ratelimit-remaining', String(Math.max(0, limit - served.get(meter)!)));
      return payload;
    });
  },
});
