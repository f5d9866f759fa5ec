import { basename } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order suites run in. Walks of collections come before anything writes, and again after the
 * writes (after-writes, once the rate-limit suite's waits have left the main key's budget whole);
 * checks that send requests without a key come before the rate-limit suite spends the per-IP
 * budget on purpose; the run-wide phase judges the whole log, so it comes last.
 */
export const SUITE_ORDER = ['general', 'resources', 'pagination', 'errors', 'auth', 'submissions', 'keys', 'rate-limits', 'after-writes', 'run-wide'] as const;

/** A suite file's registry name: `suites/keys.suite.ts` is `keys`. */
export function suiteName(file: string): string {
  return basename(file).replace(/\.suite\.ts$/, '');
}

export class SuiteOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // An unlisted file (test/suites-registered.test.ts fails on one) still runs before run-wide,
    // whose judges must see every other check's requests.
    const rank = (spec: TestSpecification) => {
      const index = (SUITE_ORDER as readonly string[]).indexOf(suiteName(spec.moduleId));
      return index === -1 ? SUITE_ORDER.length - 1.5 : index;
    };
    return [...files].sort((a, b) => rank(a) - rank(b));
  }

  override async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    return files;
  }
}
