import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { basename } from 'node:path';
import type { CheckStatus } from '../src/check/outcome.js';

const MARK: Record<CheckStatus, string> = { pass: '✓', fail: '✗', warn: '!', error: 'E', skipped: '-', not_applicable: '·' };

/** A line per clause family as it finishes, and a line per check that did not pass. */
export class ProgressReporter implements Reporter {
  constructor(readonly write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)) {}

  /** Called when a check has finished. */
  onTestCaseResult(test: TestCase): void {
    const record = test.meta().conformance;
    if (!record || record.status === 'pass' || record.status === 'not_applicable') return;
    this.write(`    ${MARK[record.status]} ${test.name}: ${record.reason ?? record.status}`);
  }

  /** Called when a suite file has finished. */
  onTestModuleEnd(module: TestModule): void {
    const counts: Partial<Record<CheckStatus, number>> = {};
    for (const test of module.children.allTests()) {
      const status = test.meta().conformance?.status;
      if (status) counts[status] = (counts[status] ?? 0) + 1;
    }
    const family = basename(module.moduleId).replace(/\.suite\.ts$/, '');
    const parts = (Object.keys(MARK) as CheckStatus[]).filter((s) => counts[s]).map((s) => `${counts[s]} ${s.replace('_', ' ')}`);
    this.write(`  ${family.padEnd(12)} ${parts.join(', ') || 'no checks'}`);
  }
}
