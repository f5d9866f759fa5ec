import { defineMutant } from '../../mutant.js';
import type { WindowState } from '../../../reference/rate-limit.js';

/*
 * How this happens: to keep throttled clients from hammering the shared limiter store, each API
 * node keeps a local deny cache: once a key gets a 429, that answer is stored and replayed without
 * asking the store again. The entry's TTL is the window's reset plus a five-second allowance "for
 * clock skew between nodes", so for a few seconds after the window has rolled over the node still
 * replays the old 429 (now with Retry-After 1). A client that waits exactly the Retry-After it was
 * given is refused again.
 */
export default defineMutant({
  description:
    "A throttled key's 429 is cached and replayed until five seconds after the window resets, so a client that waits the Retry-After it was given gets another 429.",
  breaks: { 'RATE-5': 'warn' },
  collateral: ['RATE-2'],
  modify: (reference) => {
    const { limiter } = reference.state;
    const hit = limiter.hit.bind(limiter);
    const SKEW_ALLOWANCE_MS = 5000;
    const denied = new Map<string, { answer: WindowState; until: number }>();
    limiter.hit = (bucket, ceiling) => {
      // Only the per-key limiter is fronted by the cache; the per-IP one is the edge's.
      if (bucket.startsWith('ip:')) return hit(bucket, ceiling);
      const entry = denied.get(bucket);
      if (entry) {
        if (limiter.now() < entry.until) return { ...entry.answer };
        denied.delete(bucket);
      }
      const window = hit(bucket, ceiling);
      if (window.exceeded) denied.set(bucket, { answer: { ...window }, until: window.resetAtMs + SKEW_ALLOWANCE_MS });
      return window;
    };
  },
});
