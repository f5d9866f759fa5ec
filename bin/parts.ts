// The composition root's one decision: which reporters and which embedded server a run gets. The
// CLI (`cli.ts`) and the kit (`index.ts`) hand these to the run; src/ only knows their shape
// (`src/run/parts.ts`), never the folders they come from.
import { ConformanceReporter } from '../reporters/conformance.js';
import { GithubAnnotationsReporter } from '../reporters/github-annotations.js';
import { ProgressReporter } from '../reporters/progress.js';
import { REAL_CLOCK, SIMULATED_CLOCK_VARIABLE, simulatedClock } from '../src/clock.js';
import type { RunParts } from '../src/run/parts.js';

/**
 * The parts of a run started in an environment `env`: the real clock, but for the project's own
 * tests, which run a target on the simulated clock (src/clock.ts, test/support/simulated.ts): a
 * run whose waits for the target's time take none. A function of the environment, not of this
 * module's first load: the tests' run host (test/support/run-host.ts) starts many runs, each in an
 * environment of its own, from one process.
 */
export function runParts(env: NodeJS.ProcessEnv): RunParts {
  const simulated = env[SIMULATED_CLOCK_VARIABLE] === '1';
  return {
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
}

/** The parts of a run in this process's environment: the CLI's and the kit's. */
export const RUN_PARTS: RunParts = runParts(process.env);
