import { referenceProfile, type ReferenceOptions } from '../../reference/server.js';
import { SIMULATED_CLOCK_VARIABLE } from '../../src/clock.js';

// Time as a dependency, for the tests (src/clock.ts): a reference that reads the run's time from
// its requests, and the environment of a run on the simulated clock. A run's waits for the
// target's time (rate windows, a key's propagation, a Retry-After) then take none, and the
// profile's own windows (60 s) hold whatever the machine's load: no verdict hangs on where a
// window boundary falls. docs/architecture.md ("Time") names the tests that stay in real time.

/** The environment of a run on the simulated clock (`bin/parts.ts` reads it). */
export const SIMULATED_RUN_ENV: Readonly<Record<string, string>> = { [SIMULATED_CLOCK_VARIABLE]: '1' };

/** `options` on the simulated clock, at the profile's own window unless they name one. */
export function onSimulatedClock(options: ReferenceOptions = {}): ReferenceOptions {
  return { windowSeconds: (options.profile ?? referenceProfile()).limits.windowSeconds, ...options, clock: 'stamped' };
}
