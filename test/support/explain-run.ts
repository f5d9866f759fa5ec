import { join } from 'node:path';
import type { ConformanceDocument } from '../../src/report/document.js';
import type { CliResult } from './run-cli.js';

/**
 * A whole run told for an assertion's message: where its report is, its exit and verdict, every
 * clause that did not pass or not apply with its reason and its checks', and its stderr if it failed.
 */
export function explainRun(result: CliResult, report: ConformanceDocument | undefined, runMs?: number): string {
  const flagged = (report?.clauses ?? [])
    .filter((c) => !['pass', 'not_applicable'].includes(c.status))
    .map(
      (c) =>
        `  ${c.id} ${c.status}: ${c.reason ?? ''}${c.checks
          .filter((k) => k.status !== 'pass' && k.reason && k.reason !== c.reason)
          .map((k) => `\n    - ${k.title} (${k.status}): ${k.reason}`)
          .join('')}`,
    );
  return [
    `report: ${join(result.reportDir, 'conformance.json')}${report ? '' : ' (not written)'}`,
    `exit ${result.exitCode}${runMs === undefined ? '' : ` in ${Math.round(runMs / 1000)} s`}, verdict ${report?.verdict ?? '?'}`,
    ...(flagged.length ? ['flagged clauses:', ...flagged] : []),
    ...(result.exitCode !== 0 ? [`stderr: ${result.stderr.trim().slice(-2000)}`] : []),
  ].join('\n');
}
