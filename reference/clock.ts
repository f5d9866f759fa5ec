import type { FastifyInstance } from 'fastify';

/**
 * The header by which a run on the simulated clock (the project's own tests: src/clock.ts) tells
 * its time with every request. The reference names it itself: it imports nothing of the harness.
 */
export const SIMULATED_TIME_HEADER = 'x-conformance-simulated-time';

/** What the reference's time is read from: the machine's clock, or the time its client's requests tell. */
export type ReferenceClock = 'real' | 'stamped';

/**
 * The reference on the run's simulated clock: the machine's clock plus the largest lead a request
 * has told, so that it never goes back. A run's wait for a rate window moves the run's clock at
 * once; the next request carries the new time, and the window has passed here too. Every answer
 * says the time it read, by which the run knows its target is on its clock (its `Date` is written
 * from the server's clock, `server.ts`).
 */
export function useStampedClock(app: FastifyInstance): () => number {
  let leadMs = 0;
  const now = () => Date.now() + leadMs;
  app.addHook('onRequest', async (req) => {
    const told = Number(req.headers[SIMULATED_TIME_HEADER]);
    if (Number.isFinite(told)) leadMs = Math.max(leadMs, told - Date.now());
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header(SIMULATED_TIME_HEADER, String(Math.round(now())));
    return payload;
  });
  return now;
}
