import type { Reporter, SerializedError, TestCase, TestModule } from 'vitest/node';
import type { CheckRecord } from '../src/check/outcome.js';
import { isClauseId } from '../src/clauses/catalogue.js';

/**
 * Collects every check's record from vitest's task meta. It does not judge: the run turns the
 * records into clause results and the verdict (see `src/run/verdict.ts`).
 */
export class ConformanceReporter implements Reporter {
  readonly records: CheckRecord[] = [];
  /** Faults of the suite itself: tests outside `check()`, crashes, unhandled errors. */
  readonly suiteFaults: string[] = [];

  /** Called when the whole run has finished. */
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    for (const module of testModules) {
      for (const error of module.errors()) this.suiteFaults.push(`${module.moduleId}: ${error.message}`);
      for (const test of module.children.allTests()) this.#collect(test);
    }
    for (const error of unhandledErrors) this.suiteFaults.push(`unhandled: ${error.message}`);
  }

  #collect(test: TestCase): void {
    const record = test.meta().conformance;
    const result = test.result();
    if (!record || !isClauseId(record.clause)) {
      this.suiteFaults.push(`test "${test.fullName}" was not declared through check() with a known clause`);
      return;
    }
    // A test vitest failed while its check still said pass broke in the harness (a timeout, say).
    if (result.state === 'failed' && record.status !== 'fail' && record.status !== 'error') {
      record.status = 'error';
      record.reason = `the check did not finish: ${result.errors?.[0]?.message ?? 'unknown error'}`;
    }
    if (result.state === 'pending') return;
    this.records.push(record);
  }
}
