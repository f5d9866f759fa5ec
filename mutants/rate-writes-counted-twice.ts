import { defineMutant } from './mutant.js';
import { beforeHandler } from './support.js';

/**
 * An idempotency layer put in front of the writes with a rate-limit plugin of its own, pointed at
 * the key's bucket in the same store as the API's: a key's POST is counted by both, so each write
 * takes two from the budget, and the Remaining a write is answered with shows it.
 */
export default defineMutant({
  description: "each POST of a key is counted twice against the key's budget: X-RateLimit-Remaining falls by two over a write and by one over a read",
  breaks: { 'RATE-8': 'warn' },
  // The explorer's key writes are a key's sequential POSTs among its reads (KEY).
  provokedBy: ['KEY'],
  modify: (reference) => {
    const { state } = reference;
    beforeHandler(reference, async (req, reply) => {
      if (req.method !== 'POST' || !req.apiKey) return;
      const window = state.limiter.hit(state.behaviour.rateBucket(req.apiKey, req.url.split('?')[0]!), state.profile.limits.perKeyPerMinute);
      reply.header('x-ratelimit-remaining', String(window.remaining));
    });
  },
});
