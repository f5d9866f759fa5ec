import { defineMutant } from './mutant.js';

/**
 * "Coarse" rate headers: X-RateLimit-Remaining is shown rounded up to a multiple of ten, so that a
 * cache in front keeps one answer for ten requests, while the ceiling itself is kept exactly. The
 * Remaining stays for ten requests, then falls by ten: it falls for every kind of request, and pair
 * by pair a token bucket's refill could explain each step that did not; only the fall over a run of
 * sequential requests of one key, against what could have come back, shows it (RATE-8).
 */
export default defineMutant({
  description: 'X-RateLimit-Remaining rounded up to a multiple of ten: it stays for ten requests, then falls by ten',
  breaks: { 'RATE-8': 'warn' },
  // Runs of sequential requests on the keys only the run holds: the keys the key checks create and use.
  provokedBy: ['KEY'],
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      const remaining = reply.getHeader('x-ratelimit-remaining');
      const limit = Number(reply.getHeader('x-ratelimit-limit'));
      if (remaining !== undefined && reply.statusCode !== 429)
        reply.header('x-ratelimit-remaining', String(Math.min(limit, Math.ceil(Number(remaining) / 10) * 10)));
      return payload;
    });
  },
});
