import { defineMutant } from './mutant.js';

/**
 * A per-key limiter told to skip failed requests (express-rate-limit's `skipFailedRequests`): each
 * request counts as it comes, and one answered 4xx or 5xx (but 429) is given back once its answer
 * is sent, so that a key's failed requests never spend its budget, though the document counts
 * every authenticated request.
 */
export default defineMutant({
  description:
    "a key's request answered 4xx or 5xx (other than 429) is given back to its budget once answered: X-RateLimit-Remaining does not move over failed requests, and a burst of them never meets a 429",
  breaks: { 'RATE-3': 'fail', 'RATE-8': 'warn' },
  collateral: ['RATE-6'],
  // RATE-8 sees it in a key's sequential requests of every kind of answer: the explorer's (KEY).
  provokedBy: ['KEY'],
  modify: ({ app, state }) => {
    const counts = new Map<string, { window: number; used: number }>();
    const { windowMs } = state.limiter;
    state.limiter.hit = (bucket, ceiling) => {
      const window = Math.floor(state.now() / windowMs);
      let entry = counts.get(bucket);
      if (!entry || entry.window !== window) counts.set(bucket, (entry = { window, used: 0 }));
      const resetAtMs = (window + 1) * windowMs;
      if (entry.used >= ceiling) return { limit: ceiling, remaining: 0, resetAtMs, exceeded: true };
      entry.used++;
      return { limit: ceiling, remaining: ceiling - entry.used, resetAtMs, exceeded: false };
    };
    app.addHook('onResponse', async (req, reply) => {
      if (reply.statusCode < 400 || reply.statusCode === 429 || !req.apiKey) return;
      const entry = counts.get(state.behaviour.rateBucket(req.apiKey, req.url.split('?')[0]!));
      if (entry && entry.used > 0) entry.used--;
    });
  },
});
