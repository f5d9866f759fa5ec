import { defineMutant } from '../../mutant.js';

/**
 * A duration as the `ms` package writes it in long form (`ms(60000, { long: true })` is
 * "1 minute"): what @fastify/rate-limit hands its error builder as `context.after`.
 */
function longDuration(ms: number): string {
  const units: Array<[number, string]> = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1_000, 'second'],
  ];
  for (const [size, name] of units) {
    if (ms >= size) return `${Math.round(ms / size)} ${name}${ms >= size * 1.5 ? 's' : ''}`;
  }
  return `${ms} ms`;
}

/*
 * How this happens: rate limiting is @fastify/rate-limit, with an `errorResponseBuilder` that
 * wraps its answer in the API's error envelope and keeps the message from the plugin's README,
 * `Rate limit exceeded, retry in ${context.after}`. But `context.after` is the configured time
 * window formatted by `ms` ("1 minute"), not the time left in it. The plugin's Retry-After and
 * X-RateLimit-* headers are computed from the time left and stay right; only the message's stated
 * wait is the whole window, whenever in the window the limit is hit.
 */
export default defineMutant({
  description:
    'The 429 message states the whole rate window ("retry in 1 minute") instead of the actual wait, so it disagrees with Retry-After; headers, status, type and code are correct.',
  breaks: { 'RATE-3': 'fail' },
  collateral: [],
  modify: (reference) => {
    const after = longDuration(reference.state.profile.limits.windowSeconds * 1000);
    reference.app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode !== 429 || typeof payload !== 'string') return payload;
      let body: { error?: { message?: unknown } };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (!body.error || typeof body.error.message !== 'string') return payload;
      body.error.message = `Rate limit exceeded, retry in ${after}`;
      return JSON.stringify(body);
    });
  },
});
