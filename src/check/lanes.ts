import { describe, inject } from 'vitest';
import { selectedPhases } from './suite-order.js';
import { defineCheckFixtures } from './check.js';

/**
 * The one file vitest runs (src/run/suites.ts): it loads the selected suite files into their
 * phases, lanes and steps (`SUITE_PHASES`). vitest runs the files of a worker one after another;
 * as describe blocks of one file, the lanes of a phase run beside each other, and so do the suites
 * of a step (vitest runs sibling blocks marked concurrent together), while each suite's checks keep
 * their own order (`concurrent: false`, unless a check says otherwise). Each suite's block carries its name as meta: its checks
 * inherit it, and the progress line and the checks' shared values (`t.once`) go by it.
 */
defineCheckFixtures();
const phases = selectedPhases(inject('conformance').selection);

// Blocks marked concurrent run beside their concurrent siblings; a block that says `concurrent:
// false` runs in order, and so do its children unless they say otherwise. Each level says which.
for (const [index, lanes] of phases.entries()) {
  describe(`phase ${index + 1}`, { concurrent: false }, () => {
    for (const lane of lanes) {
      describe(`lane ${lane.name}`, { concurrent: lanes.length > 1 }, () => {
        for (const step of lane.steps) {
          describe(`step ${step.join(' + ')}`, { concurrent: false }, () => {
            for (const suite of step) {
              describe(`beside ${suite}`, { concurrent: step.length > 1 }, () => {
                describe(suite, { concurrent: false, meta: { conformanceSuite: suite } }, async () => {
                  // A path esbuild reads as a pattern: the build bundles every suite file
                  // (bin/compiled.mjs), and runs only the module of each suite imported here.
                  await import(`../../suites/${suite}.suite.ts`);
                });
              });
            }
          });
        }
      });
    }
  });
}
