import { defineMutant } from '../../mutant.js';
import type { WindowState } from '../../../reference/rate-limit.js';

/** A request of a key to the path it asked less than this long ago is taken for an SDK retry. */
const RETRY_WINDOW_MS = 2000;

/*
 * How this happens: once the SDKs retried on timeouts, customers whose requests timed out during a
 * slow database spell burned their 100-a-minute budget on retries and were then throttled for the
 * rest of the minute, which support tickets called "your rate limiter punishes your own outage".
 * The gateway team decides that retries are free. Older SDKs send no retry-attempt header, so the
 * limiter recognises a retry by shape: the same key asking the same path within two seconds of a
 * request it was charged for. The check lives in the limiter's bucket function, which is only
 * handed the path (the query string was stripped long ago to keep the bucket keys bounded), so a
 * second page of a list, or the same list with another filter, asked within two seconds, also goes
 * uncharged. In a manual test, curl commands typed seconds apart each take one off
 * X-RateLimit-Remaining as before, and the throttling dashboards show fewer 429s, as intended.
 */
export default defineMutant({
  description:
    'A request of a key to the same path as a charged request of that key less than 2 s earlier is treated as an SDK retry and not counted against the rate limit.',
  breaks: { 'RATE-3': 'fail', 'RATE-8': 'warn' },
  collateral: ['RATE-4', 'RATE-5', 'RATE-6', 'RATE-9'],
  modify: (reference) => {
    const { state, behaviour } = reference;
    const windowMs = state.limiter.windowMs;
    /** When a key was last charged for a path. */
    const lastCharged = new Map<string, number>();
    /** The bucket of the request the bucket function just took for a retry (read by `hit` at once). */
    let retryOf: string | null = null;
    const bucketOf = behaviour.rateBucket.bind(behaviour);
    behaviour.rateBucket = (key, path) => {
      const bucket = bucketOf(key, path);
      const fingerprint = `${key.id} ${path}`;
      const now = state.now();
      const last = lastCharged.get(fingerprint);
      if (last !== undefined && now - last < RETRY_WINDOW_MS) {
        retryOf = bucket;
      } else {
        retryOf = null;
        if (lastCharged.size > 50_000) lastCharged.clear();
        lastCharged.set(fingerprint, now);
      }
      return bucket;
    };
    // The limiter, with a look that does not count for the retries the bucket function found.
    const counts = new Map<string, { window: number; used: number }>();
    state.limiter.hit = (bucket: string, ceiling: number): WindowState => {
      const now = state.limiter.now();
      const window = Math.floor(now / windowMs);
      let entry = counts.get(bucket);
      if (!entry || entry.window !== window) {
        entry = { window, used: 0 };
        counts.set(bucket, entry);
      }
      const resetAtMs = (window + 1) * windowMs;
      const retry = retryOf === bucket;
      retryOf = null;
      if (entry.used >= ceiling) return { limit: ceiling, remaining: 0, resetAtMs, exceeded: true };
      if (!retry) entry.used++;
      return { limit: ceiling, remaining: ceiling - entry.used, resetAtMs, exceeded: false };
    };
    state.limiter.forget = (bucket: string) => void counts.delete(bucket);
  },
});
