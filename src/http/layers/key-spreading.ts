import { whileWaiting } from '../../clock.js';
import type { Layer } from '../layer.js';
import { bucketOf, type Outgoing } from '../request.js';

/** Paces a request any of `buckets` may carry; answers the index of the one to use (the broker). */
export type AcquireAny = (buckets: readonly string[]) => Promise<number>;

/**
 * Spreads the main key's work over the keys of the run's pool (keys of the same account the run
 * created): a GET or POST the main key would send goes with whichever key has budget first. Limits
 * are per key and a key acts as its account (API document, Limits; Authentication), so the run is
 * as fast as all its keys together. Deletions, requests that bypass pacing and those that mean to
 * provoke a 429 keep the key they name.
 */
export function keySpreading(pool: readonly string[], acquireAny: AcquireAny): Layer {
  const pooled = pool.map((key) => `Bearer ${key}`);
  const pooledBuckets = pooled.map(bucketOf);
  return (next) => async (request) => {
    if (pooled.length === 0 || !spreadable(request)) return next(request);
    const carriers = [request.headers.authorization!, ...pooled];
    const buckets = [bucketOf(request.headers.authorization!), ...pooledBuckets];
    // A wait for a budget, as in `pacing`: on the simulated clock, a request held here is not on its
    // way, and must not keep the clock from moving to the window its budget waits for.
    const chosen = await whileWaiting(() => acquireAny(buckets));
    return next({
      ...request,
      headers: { ...request.headers, authorization: carriers[chosen]! },
      bucket: buckets[chosen]!,
      acquired: true,
      ...(chosen > 0 ? { pooled: true } : {}),
    });
  };
}

/** Reading and creating; a deletion keeps its key, so that no key of the pool ever carries its own. */
const SPREAD_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'POST']);

function spreadable(request: Outgoing): boolean {
  return (
    request.auth === 'main' &&
    SPREAD_METHODS.has(request.method) &&
    request.spec.pace !== false &&
    !request.spec.expect429 &&
    request.headers.authorization !== undefined
  );
}
