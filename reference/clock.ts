import type { FastifyInstance } from 'fastify';

/**
 * The header by which a run on the simulated clock (the project's own tests: src/clock.ts) tells
 * its time with every request. The reference names it itself: it imports nothing of the harness.
 */
export const SIMULATED_TIME_HEADER = 'x-conformance-simulated-time';

/** What the reference's time is read from: the machine's clock, or the time its client's requests tell. */
export type ReferenceClock = 'real' | 'stamped';

/**
 * The reference on the run's simulated clock: the run's time, as its requests tell it, and never
 * going back. A run's wait for a rate window moves the run's clock at once; the next request
 * carries the new time, and the window has passed here too. Every answer says the time it read, by
 * which the run knows its target is on its clock (its `Date` is written from the server's clock,
 * `server.ts`).
 *
 * The machine's clock may be ahead of the run's: a run's clock is the machine's at its process's
 * start plus the time since (src/clock.ts), and a process that serves many runs (the project's
 * run hosts) may have started before the machine's clock was stepped forward (NTP, a hypervisor's
 * time sync). The reference then keeps the lead it had at the run's first request, as a server
 * whose clock is set apart: the run measures one offset from the `Date` headers and reads every
 * Reset by it. Following the run's time from the first jump instead, its clock would fall back by
 * the lead against the run's, and the run, still reading by the offset it measured, would wait
 * for each window that much too short (CI: a 429 each window, 1.2 s early).
 */
export function useStampedClock(app: FastifyInstance, machineNow: () => number = Date.now): () => number {
  let leadMs = 0;
  /** How far the machine's clock was ahead of the run's at the first request that told it (0 if behind). */
  let aheadMs: number | null = null;
  const now = () => machineNow() + leadMs;
  app.addHook('onRequest', async (req) => {
    const told = Number(req.headers[SIMULATED_TIME_HEADER]);
    if (!Number.isFinite(told)) return;
    aheadMs ??= Math.max(0, machineNow() - told);
    leadMs = Math.max(leadMs, told + aheadMs - machineNow());
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header(SIMULATED_TIME_HEADER, String(Math.round(now())));
    return payload;
  });
  return now;
}
