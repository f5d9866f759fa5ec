import { defineVariant } from './variant.js';
import { installAlgorithm } from './support/rate.js';

/**
 * A token bucket per key: it holds up to `ceiling` tokens and refills continuously at `ceiling`
 * tokens a window; a request takes one token. Remaining is the whole tokens left; Reset is when
 * the bucket is full again; a 429's Retry-After is when the next token arrives.
 */
export default defineVariant({
  description:
    'limits each key with a token bucket of the ceiling, refilled continuously at the ceiling per window (Remaining: whole tokens; Reset: when the bucket is full again)',
  openPoint: 'rate-algorithm',
  atRisk: ['RATE-2', 'RATE-3', 'RATE-5', 'RATE-6', 'RATE-7', 'RATE-8'],
  rateLimits: true,
  modify: (reference) => {
    installAlgorithm(reference, (windowMs) => {
      const buckets = new Map<string, { tokens: number; atMs: number }>();
      return (bucket, ceiling, nowMs) => {
        const msPerToken = windowMs / ceiling;
        let state = buckets.get(bucket);
        if (!state) buckets.set(bucket, (state = { tokens: ceiling, atMs: nowMs }));
        state.tokens = Math.min(ceiling, state.tokens + (nowMs - state.atMs) / msPerToken);
        state.atMs = nowMs;
        const fullAtMs = () => nowMs + (ceiling - state.tokens) * msPerToken;
        if (state.tokens < 1) {
          return { limit: ceiling, remaining: 0, resetAtMs: fullAtMs(), exceeded: true, retryAtMs: nowMs + (1 - state.tokens) * msPerToken };
        }
        state.tokens -= 1;
        return { limit: ceiling, remaining: Math.floor(state.tokens), resetAtMs: fullAtMs(), exceeded: false };
      };
    });
  },
});
