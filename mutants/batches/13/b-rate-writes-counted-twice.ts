import { defineMutant } from '../../mutant.js';
import { beforeHandler } from '../../support.js';

/*
 * How this happens: the write endpoints were moved behind a new audit/idempotency middleware by a
 * second team, who mounted their own copy of the rate-limit plugin on it, pointing at the same
 * Redis bucket as the gateway's. Reads pass the gateway only, so every GET counts once, but each
 * POST or DELETE is counted twice and its X-RateLimit-Remaining drops by two.
 */
export default defineMutant({
  description: 'Requests that change data (POST, DELETE) are counted twice against the key’s rate window, so X-RateLimit-Remaining falls by two per write.',
  breaks: { 'RATE-8': 'warn' },
  collateral: ['RATE-3', 'RATE-4'],
  modify: (reference) => {
    const { state } = reference;
    beforeHandler(reference, async (req, reply) => {
      if (req.method !== 'POST' && req.method !== 'DELETE') return;
      if (!req.url.startsWith('/api/') || !req.apiKey) return;
      const path = req.url.split('?')[0]!;
      const window = state.limiter.hit(state.behaviour.rateBucket(req.apiKey, path), state.profile.limits.perKeyPerMinute);
      // The second plugin writes its own view of the window over the gateway's headers.
      reply.header('x-ratelimit-remaining', String(window.remaining));
    });
  },
});
