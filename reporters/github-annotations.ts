import type { Reporter, TestCase } from 'vitest/node';
import type { CheckStatus } from '../src/check/outcome.js';

/** Which GitHub workflow command a check status becomes; statuses that are not findings stay silent. */
const COMMAND: Record<CheckStatus, 'error' | 'warning' | null> = {
  fail: 'error',
  error: 'error',
  warn: 'warning',
  pass: null,
  skipped: null,
  not_applicable: null,
};

/**
 * GitHub Actions annotations, one per finding, titled with its clause. They point at no file: the
 * job runs in the repository of the API under test, where the suite's own files do not exist (an
 * annotation on a missing file lands on nothing); the details are in `report.html`. Used instead
 * of vitest's `github-actions` reporter, which annotates failures by stack frame and appends a
 * job summary of its own next to `summary.md`.
 */
export class GithubAnnotationsReporter implements Reporter {
  constructor(readonly write: (line: string) => void) {}

  /** Called when a check has finished. */
  onTestCaseResult(test: TestCase): void {
    const record = test.meta().conformance;
    const command = record ? COMMAND[record.status] : null;
    if (!record || !command) return;
    const title = property(`${record.clause} ${record.title}`);
    this.write(`::${command} title=${title}::${data(`${record.clause}: ${record.reason ?? record.status} (details in report.html)`)}`);
  }
}

/** Escaping of workflow command data (GitHub's toolkit, `escapeData`). */
function data(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escaping of workflow command properties (GitHub's toolkit, `escapeProperty`). */
function property(text: string): string {
  return data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
