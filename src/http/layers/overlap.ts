import type { Layer } from '../layer.js';

interface InFlight {
  overlapped: boolean;
}

/** Requests of this process (every client of a worker) now on the wire, by pacing bucket (one a credential). */
const inFlight = new Map<string, Set<InFlight>>();

/**
 * Marks exchanges that were on the wire at the same moment as another of this process with the
 * same credential: the target may have handled them in either order, and so counted them against
 * the key's budget in either order (RATE-8 compares only a key's requests without). Requests with
 * other credentials may overlap freely: the suite's lanes and concurrent checks send many at once,
 * over the keys of the pool, and each key's budget is its own.
 */
export const overlapTracking: Layer = (next) => async (request) => {
  const mine: InFlight = { overlapped: false };
  let same = inFlight.get(request.bucket);
  if (!same) inFlight.set(request.bucket, (same = new Set()));
  for (const other of same) {
    other.overlapped = true;
    mine.overlapped = true;
  }
  same.add(mine);
  const settle = (exchange: { overlapped?: boolean }) => {
    same.delete(mine);
    if (same.size === 0) inFlight.delete(request.bucket);
    if (mine.overlapped) exchange.overlapped = true;
  };
  try {
    const response = await next(request);
    settle(response.exchange);
    return response;
  } catch (error) {
    const exchange = (error as { exchange?: { overlapped?: boolean } }).exchange;
    settle(exchange ?? {});
    throw error;
  }
};
