import { createHash } from 'node:crypto';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that start first, in this order. vitest's own order is the last run's durations, or on a
 * fresh clone (CI, no cache) the files' sizes, which put the matrices (short files, hundreds of runs)
 * near the end, where their tail ran alone on one core.
 *
 * First the three that make most of the CPU (measured: some 300 of 650 CPU-seconds), then the ones
 * that mostly wait in real time (docs/architecture.md, "Time": a signal's teardown, a heartbeat, a
 * countdown, two runs at once, a target that resets). Started beside the matrices, their waiting
 * overlaps the matrices' CPU instead of making a tail of its own once the matrices are done.
 */
export const STARTS_FIRST: readonly string[] = [
  // CPU: whole runs, one a mutant, a variant or a blind implementation.
  'test/kill-matrix.test.ts',
  'test/tolerance-matrix.test.ts',
  'test/blind-implementation.test.ts',
  // Waiting: some 40 to 50 s each of real time for a few CPU-seconds.
  'test/signals.test.ts',
  'test/remaining-estimate.test.ts',
  'test/heartbeat.test.ts',
  'test/network/two-runs-at-once.test.ts',
  'test/network/unstable-surroundings.test.ts',
  'test/launchers.test.ts',
];

/**
 * Names a shuffled order of the other files (`npm run stress -- --shuffle` gives each run its own):
 * with `isolate: false` a file finds what the file before it in its thread left in the modules, and
 * vitest's order differs between a machine with a cache and a fresh clone, so a test that passes in
 * one order may fail in another (the connection pools, 1373544, red in CI only). A red run's seed
 * gives its order again: `TEST_ORDER_SEED=N npm test`.
 */
export const ORDER_SEED_VARIABLE = 'TEST_ORDER_SEED';

/** vitest's order for every other file, or one shuffled by `TEST_ORDER_SEED`, after `STARTS_FIRST` in its order. */
export default class CostOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const at = STARTS_FIRST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return at === -1 ? STARTS_FIRST.length : at;
    };
    const others = files.filter((spec) => rank(spec) === STARTS_FIRST.length);
    const seed = process.env[ORDER_SEED_VARIABLE];
    const rest = seed ? shuffled(others, seed) : await super.sort(others);
    return [...files.filter((spec) => rank(spec) < STARTS_FIRST.length).sort((a, b) => rank(a) - rank(b)), ...rest];
  }
}

/**
 * The files in an order given by the seed alone, the same on every machine: by a hash of the seed
 * and each file's path in the project, not the order vitest found them in.
 */
export function shuffled(files: readonly TestSpecification[], seed: string): TestSpecification[] {
  const key = (spec: TestSpecification) =>
    createHash('sha256')
      .update(`${seed}\0${relative(spec.project.config.root, spec.moduleId)}`)
      .digest('hex');
  const keyed = files.map((spec) => ({ spec, key: key(spec) }));
  return keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map(({ spec }) => spec);
}
