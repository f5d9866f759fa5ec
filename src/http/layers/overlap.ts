import type { Layer } from '../layer.js';

interface InFlight {
  overlapped: boolean;
}

/** Requests of this process (every client of a worker) now on the wire. */
const inFlight = new Set<InFlight>();

/**
 * Marks exchanges that were on the wire at the same moment as another of this process: the target
 * may have handled them in either order (RATE-8 compares only requests without).
 */
export const overlapTracking: Layer = (next) => async (request) => {
  const mine: InFlight = { overlapped: false };
  for (const other of inFlight) {
    other.overlapped = true;
    mine.overlapped = true;
  }
  inFlight.add(mine);
  const settle = (exchange: { overlapped?: boolean }) => {
    inFlight.delete(mine);
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
