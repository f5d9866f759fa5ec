import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the rate-limit plugin's major upgrade changed the signature of its
 * `errorResponseBuilder`, so the team rewrote the 429 builder; the new context hands over the end
 * of the window as a millisecond timestamp, and the builder writes it into X-RateLimit-Reset
 * without dividing by 1000. Ordinary responses still get their headers from the unchanged hook
 * (Unix seconds), so dashboards and the happy-path tests look right; only a client that actually
 * hits the ceiling sees a Reset some 55 000 years in the future.
 */
export default defineMutant({
  description: 'On 429 responses X-RateLimit-Reset is the end of the window in Unix milliseconds instead of seconds; every other response still sends seconds.',
  breaks: { 'RATE-2': 'fail' },
  collateral: ['RATE-4', 'RATE-5', 'RATE-7'],
  modify: (reference) => {
    reference.app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode !== 429) return payload;
      const seconds = Number(reply.getHeader('x-ratelimit-reset'));
      if (Number.isFinite(seconds)) reply.header('x-ratelimit-reset', String(seconds * 1000));
      return payload;
    });
  },
});
