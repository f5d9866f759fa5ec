import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the rate limiter library writes the 429 body itself ("Retry after 37
 * seconds.", from its own count of the seconds left), and the application adds the headers in a
 * hook. Whoever wrote the hook set `Retry-After` from the same `resetAt` variable as
 * `X-RateLimit-Reset` (a copy-paste of the line above it, GitHub-style epoch in mind), so every
 * 429 says "retry after" a Unix timestamp, some 1.7 billion seconds, while its message states the
 * real wait.
 */
export default defineMutant({
  description:
    'Every 429 sends Retry-After equal to X-RateLimit-Reset (the window end as a Unix time in seconds) instead of the seconds to wait, so it disagrees with the wait its message states.',
  breaks: { 'RATE-3': 'fail' },
  collateral: ['RATE-4', 'RATE-5', 'RATE-7'],
  modify: (reference) => {
    reference.app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode !== 429) return payload;
      const reset = reply.getHeader('x-ratelimit-reset');
      if (reset !== undefined) reply.header('retry-after', String(reset));
      return payload;
    });
  },
});
