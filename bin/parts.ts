// The composition root's one decision: which reporters and which embedded server a run gets. The
// CLI (`cli.ts`) and the kit (`index.ts`) hand these to the run; src/ only knows their shape
// (`src/run/parts.ts`), never the folders they come from.
import { ConformanceReporter } from '../reporters/conformance.js';
import { GithubAnnotationsReporter } from '../reporters/github-annotations.js';
import { ProgressReporter } from '../reporters/progress.js';
import type { RunParts } from '../src/run/parts.js';

export const RUN_PARTS: RunParts = {
  // On a thread of its own (`reference/thread.ts`), loaded only for the embedded run: a run against
  // a base URL needs no server (fastify, faker).
  startEmbeddedTarget: async (options) => (await import('../reference/thread.js')).startReferenceThread(options),
  collector: () => new ConformanceReporter(),
  progress: (out) => new ProgressReporter(out),
  githubAnnotations: (out) => new GithubAnnotationsReporter(out),
};
