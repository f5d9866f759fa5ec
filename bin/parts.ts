// The composition root's one decision: which reporters and which embedded server a run gets. The
// CLI (`cli.ts`) and the kit (`index.ts`) hand these to the run; src/ only knows their shape
// (`src/run/parts.ts`), never the folders they come from.
import { ConformanceReporter } from '../reporters/conformance.js';
import { GithubAnnotationsReporter } from '../reporters/github-annotations.js';
import { ProgressReporter } from '../reporters/progress.js';
import { REAL_CLOCK, SIMULATED_CLOCK_VARIABLE, simulatedClock } from '../src/clock.js';
import type { RunParts } from '../src/run/parts.js';

// The real clock, but for the project's own tests, which run a target on the simulated clock
// (src/clock.ts, test/support/simulated.ts): a run whose waits for the target's time take none.
const simulated = process.env[SIMULATED_CLOCK_VARIABLE] === '1';

export const RUN_PARTS: RunParts = {
  // On a thread of its own (`reference/thread.ts`), loaded only for the embedded run: a run against
  // a base URL needs no server (fastify, faker). On the simulated clock, it reads the run's time
  // from each request.
  startEmbeddedTarget: async (options) =>
    (await import('../reference/thread.js')).startReferenceThread({ ...options, ...(simulated ? { clock: 'stamped' as const } : {}) }),
  collector: () => new ConformanceReporter(),
  progress: (out) => new ProgressReporter(out),
  githubAnnotations: (out) => new GithubAnnotationsReporter(out),
  clock: simulated ? simulatedClock() : REAL_CLOCK,
};
