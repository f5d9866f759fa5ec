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

/** vitest's order for every other file, after `STARTS_FIRST` in its order. */
export default class CostOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const at = STARTS_FIRST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return at === -1 ? STARTS_FIRST.length : at;
    };
    const rest = await super.sort(files.filter((spec) => rank(spec) === STARTS_FIRST.length));
    return [...files.filter((spec) => rank(spec) < STARTS_FIRST.length).sort((a, b) => rank(a) - rank(b)), ...rest];
  }
}
