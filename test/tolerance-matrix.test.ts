import { describe, expect, test } from 'vitest';
import { referenceProfile } from '../reference/server.js';
import type { ConformanceDocument } from '../src/report/document.js';
import { DOCUMENT_ONLY_SAMPLE, VARIANTS, variantNamed, type VariantName } from '../variants/index.js';
import { documentOnly, runAgainstReference } from './support/cli.js';
import { failureEvidence } from './support/failure-evidence.js';
import { matrixArgs, matrixTarget } from './support/matrix.js';
import { judgeTolerance, sharedServers, sharedTarget } from './support/tolerance.js';

// Tolerance is the product too: every conformant variant (variants/) must come out conformant,
// with no failure, no suite fault and no warning it does not declare, under its truthful profile.
// A sample also runs under the document-only profile, where the run knows no open fact: there the
// run may be incomplete, but never non-conformant. Runs are made fast as in the kill matrix, and
// variants share a server and a run where their settings allow (test/support/tolerance.ts).

interface SharedRun {
  readonly report: ConformanceDocument;
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Where the run wrote its report: a failed test names it. */
  readonly reportDir: string;
}

/** One run a group, started by the first of its variants' tests and awaited by the others. */
function sharedRuns(names: readonly VariantName[], options: { documentOnly?: boolean }) {
  const groups = sharedServers(names, VARIANTS, referenceProfile());
  const runs = new Map<readonly VariantName[], Promise<SharedRun>>();
  const groupOf = (name: VariantName) => groups.find((group) => group.includes(name))!;
  const runOf = (group: readonly VariantName[]) => {
    let run = runs.get(group);
    if (!run) {
      const variants = group.map((name) => variantNamed(name));
      const rateLimits = variants.some((variant) => variant.rateLimits === true);
      const { served, modify } = sharedTarget(variants, referenceProfile());
      run = runAgainstReference(matrixTarget(modify, served), matrixArgs(rateLimits), options.documentOnly ? documentOnly : undefined);
      runs.set(group, run);
    }
    return run;
  };
  // The first variant of every group, then the second of every group, and so on: the tests that
  // start together start different runs, rather than wait on one. Groups about rate limits (their runs
  // exhaust budgets, the costliest) come first, so that the matrix does not end on a tail of them.
  const byCost = [...groups].sort((a, b) => Number(variantNamed(b[0]!).rateLimits === true) - Number(variantNamed(a[0]!).rateLimits === true));
  const order = Array.from({ length: Math.max(...groups.map((g) => g.length)) }, (_, i) => byCost.flatMap((group) => group[i] ?? [])).flat();
  return { order, groupOf, runOf };
}

async function expectTolerated(name: VariantName, shared: ReturnType<typeof sharedRuns>, options: { documentOnly?: boolean } = {}): Promise<void> {
  const group = shared.groupOf(name);
  const run = await shared.runOf(group);
  const sharing = group.map((member) => variantNamed(member));
  const withOthers = group.length > 1 ? ` (sharing a run with ${group.filter((member) => member !== name).join(', ')})` : '';
  expect(
    judgeTolerance(variantNamed(name), run.report, { ...options, sharing }).falseFindings,
    `${name} got a false verdict${withOthers}; the run's report: ${run.reportDir} (npm run stress keeps it)`,
  ).toEqual([]);
  expect(run.report.verdict, `${withOthers}\n${failureEvidence(run.report)}`).toBe('conformant');
  // -1: killed at runCli's deadline, still running; its last output says where it stood.
  expect(run.exitCode, `the run's exit status; its last output:\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`).toBe(0);
}

describe.concurrent('tolerance matrix', () => {
  const own = sharedRuns(Object.keys(VARIANTS) as VariantName[], {});
  for (const name of own.order) {
    test(`${name} is conformant (${variantNamed(name).openPoint})`, () => expectTolerated(name, own));
  }
  const told = sharedRuns(DOCUMENT_ONLY_SAMPLE, { documentOnly: true });
  for (const name of told.order) {
    test(`${name} is never non-conformant under the document-only profile`, () => expectTolerated(name, told, { documentOnly: true }));
  }
});
