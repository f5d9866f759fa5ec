import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { ConformanceDocument } from '../src/report/document.js';
import { runConformance, scratch, targetEnv, withMutants, withReference } from './support/commands.js';

// A check that sends a body of several hundred KiB (GEN-3) and fails on it keeps its evidence
// readable: the body is cut in the report as a response body is, and the curl line names a file
// instead of carrying it.
test('a failure on a request body of several hundred KiB leaves a report of kilobytes, with the body cut and its size said', async () => {
  const cwd = scratch();
  const dir = join(cwd, 'reports');
  const run = await withReference(withMutants('large-body-500'), (target) => runConformance(['--only', 'GEN-3', '--report-dir', dir], targetEnv(target), cwd));
  // GEN-3 is a SHOULD: a warning, exit 0.
  expect(run.exitCode, run.stderr).toBe(0);
  const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceDocument;
  const warned = report.clauses.flatMap((c) => c.checks).filter((c) => c.status === 'warn');
  const large = warned.flatMap((c) => c.evidence ?? []).filter((e) => e.request.truncated);
  expect(large.length, 'an evidence exchange with its request body cut').toBeGreaterThan(0);
  for (const e of large) {
    expect(e.request.bytes).toBeGreaterThan(100_000);
    expect(e.request.body!.length).toBeLessThan(5_000);
  }
  const curls = warned.flatMap((c) => c.repro?.curl ?? []);
  expect(curls.some((line) => line.includes('--data-binary @request-body.json') && /\d+ bytes/.test(line))).toBe(true);
  expect(curls.every((line) => line.length < 20_000)).toBe(true);
  for (const file of ['conformance.json', 'junit.xml', 'summary.md', 'report.html']) expect(statSync(join(dir, file)).size, file).toBeLessThan(300_000);
});
