import { relative } from 'node:path';
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
 * GitHub Actions annotations, one per finding, titled with its clause and placed on the check
 * that found it. Used instead of vitest's `github-actions` reporter: that one annotates only
 * failures whose error carries a stack frame (check() strips the stack, since a finding is
 * not a crash) and appends a job summary of its own next to `summary.md`.
 */
export class GithubAnnotationsReporter implements Reporter {
  constructor(
    readonly write: (line: string) => void,
    readonly root: string,
  ) {}

  /** Called when a check has finished. */
  onTestCaseResult(test: TestCase): void {
    const record = test.meta().conformance;
    const command = record ? COMMAND[record.status] : null;
    if (!record || !command) return;
    const properties = [`file=${property(relative(this.root, test.module.moduleId))}`];
    if (test.location) properties.push(`line=${test.location.line}`);
    properties.push(`title=${property(`${record.clause} ${record.title}`)}`);
    this.write(`::${command} ${properties.join(',')}::${data(record.reason ?? record.status)}`);
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
