import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: Kong's rate-limiting-advanced plugin, `retry_after_jitter_max`
 * (its handler: `retry_after = reset + math.random(jitter_max)`, "to reduce a chance of retries
 * spike"); in-house limiters do the same. With clock-aligned fixed windows every client throttled
 * in a minute is otherwise told to come back at the same second, and the first 100 retries of the
 * new window all land at once; spreading Retry-After over a few seconds flattens that spike. The
 * limiter itself is the reference's (fixed windows aligned on the clock, 100 per key, 20 per IP);
 * only the advice changes: Retry-After (and the wait the 429 message states) is the time left in the
 * window, rounded up, plus 1 to N whole seconds, N being a twelfth of the window (5 s for a minute,
 * at least 1). The jitter is drawn from a seeded generator, as reproducible as a run needs.
 *
 * Why it is conformant: Limits says only that Retry-After gives the "seconds to wait before
 * retrying" and is sent on 429s; RFC 9110 (10.2.3) makes it the server's statement of how long the
 * client ought to wait, and a server may ask for more than the bare minimum. Every 429 still carries
 * Retry-After in whole seconds and the three X-RateLimit-* headers; the message states the very
 * number Retry-After carries; a client that waits it always finds the window over (it waits a little
 * longer than needed). X-RateLimit-Reset is untouched: still the truthful Unix time at which the
 * window resets, so on a 429 Retry-After is deliberately 1 to N seconds more than Reset minus now.
 * Nothing in the document ties Retry-After to Reset, nor bounds Retry-After by the window.
 */
export default defineVariant({
  description:
    "adds 1 to N seconds of jitter (N a twelfth of the window, 5 s for a minute) to Retry-After and to the wait the 429 message states, as Kong's retry_after_jitter_max does, so throttled clients do not all retry at the window boundary; X-RateLimit-Reset still says when the window ends",
  openPoint: 'rate-algorithm',
  atRisk: ['RATE-2', 'RATE-3', 'RATE-4', 'RATE-5', 'RATE-7'],
  rateLimits: true,
  modify: ({ state, behaviour }) => {
    const jitterMax = Math.max(1, Math.round(state.profile.limits.windowSeconds / 12));
    // mulberry32, seeded: the same sequence of jitters every run.
    let seed = 0x2545f491;
    const random = (): number => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = seed;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    // The reference's own wait to the end of the window (rounded up, at least 1 s).
    const untilReset = behaviour.retryAfterSeconds;
    // auth.ts calls this once per 429 and writes the result both to Retry-After and to the message.
    behaviour.retryAfterSeconds = (resetAtMs, nowMs) => untilReset(resetAtMs, nowMs) + 1 + Math.floor(random() * jitterMax);
  },
});
