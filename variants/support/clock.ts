import type { ReferenceApp } from '../../reference/server.js';

/**
 * Sets the server's clock `offsetMs` from the machine's: its rate-limit windows, the Unix times of
 * X-RateLimit-Reset, its last-use times and its `Date` headers (`reference/server.ts`) all read it, as on a host whose
 * clock drifted (or a client's that did: the suite sees the same skew). The offset is from the
 * server's own clock, the simulated one where it runs on it.
 */
export function skewClock(reference: ReferenceApp, offsetMs: number): void {
  const base = reference.state.now;
  const now = () => base() + offsetMs;
  reference.state.now = now;
  reference.state.limiter.now = now;
}
