import type { FastifyRequest } from 'fastify';
import type { WindowState } from '../../../reference/rate-limit.js';
import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: when the API went to several instances, the per-key counter moved to a shared
 * store. The middleware GETs the key's count as the request comes in, decides from it, and then
 * writes `count + 1` back with an awaited SET (a round trip to the store) instead of one atomic
 * INCR. Sequential requests are counted exactly. Requests of one key that are in flight at the same
 * time all read the same count and each writes back that count plus one, so a burst of overlapping
 * requests costs the key about one request: all of them show the same X-RateLimit-Remaining, and a
 * concurrent burst gets far past the ceiling without a 429. (The per-IP limit for anonymous
 * requests stayed in memory and is unaffected.)
 */
export default defineMutant({
  description:
    'The per-key rate counter is a non-atomic read-then-write across an async hop: requests of one key in flight at once read the same count and are counted once, so a concurrent burst passes the ceiling without a 429.',
  breaks: { 'RATE-3': 'fail' },
  collateral: ['RATE-4', 'RATE-5', 'RATE-6', 'RATE-8', 'RATE-9'],
  provokedBy: ['RATE'],
  modify: (reference) => {
    const { limiter, behaviour } = reference.state;
    /** What the shared store holds: each key bucket's count in its window. */
    const stored = new Map<string, { window: number; used: number }>();
    /** Counts read by `hit` and not yet claimed by their request, per bucket, in arrival order. */
    const reads = new Map<string, Array<{ window: number; seen: number }>>();
    const faithfulHit = limiter.hit.bind(limiter);
    const faithfulForget = limiter.forget.bind(limiter);

    limiter.forget = (bucket: string): void => {
      stored.delete(bucket);
      reads.delete(bucket);
      faithfulForget(bucket);
    };
    limiter.hit = (bucket: string, ceiling: number): WindowState => {
      if (!bucket.startsWith('key:')) return faithfulHit(bucket, ceiling);
      const window = Math.floor(limiter.now() / limiter.windowMs);
      const resetAtMs = (window + 1) * limiter.windowMs;
      const entry = stored.get(bucket);
      // GET: the count as stored now, not counting requests still on their way to the SET.
      const seen = entry && entry.window === window ? entry.used : 0;
      if (seen >= ceiling) return { limit: ceiling, remaining: 0, resetAtMs, exceeded: true };
      const queue = reads.get(bucket) ?? [];
      queue.push({ window, seen });
      reads.set(bucket, queue);
      return { limit: ceiling, remaining: ceiling - seen - 1, resetAtMs, exceeded: false };
    };

    // Runs right after authentication (hooks run in the order they were added).
    reference.app.addHook('onRequest', async (req: FastifyRequest) => {
      if (!req.apiKey) return;
      const bucket = behaviour.rateBucket(req.apiKey, pathOf(req));
      const read = reads.get(bucket)?.shift();
      if (!read) return;
      // SET count + 1: the round trip to the store, during which other requests read the old count.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const current = stored.get(bucket);
      if (current && current.window > read.window) return;
      stored.set(bucket, { window: read.window, used: read.seen + 1 });
    });
  },
});
