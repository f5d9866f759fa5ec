import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason } from 'vitest/node';
import type { CheckRecord } from '../src/check/outcome.js';
import { isClauseId, type ClauseId } from '../src/clauses/catalogue.js';

/**
 * Collects every check's record from vitest's task meta as each check finishes, so that a run
 * stopped half-way still has the records of what finished. It does not judge: the run turns the
 * records into clause results and the verdict (see `src/verdict/verdict.ts`).
 */
export class ConformanceReporter implements Reporter {
  readonly records: CheckRecord[] = [];
  /** Faults of the suite itself: tests outside `check()`, crashes, unhandled errors. */
  readonly suiteFaults: string[] = [];
  /** Checks each clause has in the suites collected so far: a stopped run tells a clause judged in part. */
  readonly planned = new Map<ClauseId, number>();
  readonly #seen = new Set<string>();
  /** Each check's place in the suites as declared: checks that run beside each other end in any order. */
  readonly #declared = new Map<CheckRecord, number>();
  readonly #places = new Map<string, number>();

  /** Called when a suite file's checks have been collected, before any runs. */
  onTestModuleCollected(module: TestModule): void {
    for (const test of module.children.allTests()) {
      this.#places.set(test.id, this.#places.size);
      const id = test.name.slice(0, test.name.indexOf(' '));
      if (isClauseId(id)) this.planned.set(id, (this.planned.get(id) ?? 0) + 1);
    }
  }

  /** Called when a check has finished. */
  onTestCaseResult(test: TestCase): void {
    this.#collect(test);
  }

  /** Called when the whole run has finished. */
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason?: TestRunEndReason): void {
    // The lanes file was not found (an install missing its build): nothing ran, which is no pass.
    if (testModules.length === 0 && reason !== 'interrupted') this.suiteFaults.push('vitest found no suite file to run: the package is incomplete');
    for (const module of testModules) {
      for (const error of module.errors()) this.suiteFaults.push(`${module.moduleId}: ${error.message}`);
      for (const test of module.children.allTests()) this.#collect(test);
    }
    for (const error of unhandledErrors) this.suiteFaults.push(`unhandled: ${error.message}`);
    // The report lists checks as the suites declare them, whatever order they finished in: two runs compare line by line.
    this.records.sort((a, b) => (this.#declared.get(a) ?? Infinity) - (this.#declared.get(b) ?? Infinity));
  }

  #collect(test: TestCase): void {
    if (this.#seen.has(test.id)) return;
    const result = test.result();
    if (result.state === 'pending') return;
    this.#seen.add(test.id);
    const record = test.meta().conformance;
    // Skipped before its body ran: a check the stopped run never started.
    if (!record && result.state === 'skipped') return;
    if (!record || !isClauseId(record.clause)) {
      this.suiteFaults.push(`test "${test.fullName}" was not declared through check() with a known clause`);
      return;
    }
    // A test vitest failed while its check still said pass broke in the harness (a timeout, say).
    if (result.state === 'failed' && record.status !== 'fail' && record.status !== 'error') {
      record.status = 'error';
      record.reason = `the check did not finish: ${result.errors?.[0]?.message ?? 'unknown error'}`;
    }
    this.#declared.set(record, this.#places.get(test.id) ?? this.#places.size);
    this.records.push(record);
  }
}
