import { describe, expect, test } from 'vitest';
import { referenceProfile } from '../reference/server.js';
import { DOCUMENT_ONLY_SAMPLE, VARIANTS, type VariantName } from '../variants/index.js';
import { documentOnly, runAgainstReference } from './support/cli.js';
import { matrixArgs, matrixTarget } from './support/matrix.js';
import { judgeTolerance } from './support/tolerance.js';

// Tolerance is the product too: every conformant variant (variants/) must come out conformant,
// with no failure, no suite fault and no warning it does not declare, under its truthful profile.
// A sample also runs under the document-only profile, where the run knows no open fact: there the
// run may be incomplete, but never non-conformant. Runs are made fast as in the kill matrix.

async function expectTolerated(name: VariantName, options: { documentOnly?: boolean } = {}): Promise<void> {
  const variant = VARIANTS[name];
  const rateLimits = variant.rateLimits === true;
  const served = (variant.profile ?? ((p) => p))(referenceProfile());
  const run = await runAgainstReference(
    matrixTarget(variant.modify, served, rateLimits),
    matrixArgs(rateLimits),
    options.documentOnly ? documentOnly : undefined,
  );
  expect(judgeTolerance(variant, run.report, options).falseFindings, `${name} got a false verdict`).toEqual([]);
  expect(run.report.verdict).toBe('conformant');
  expect(run.exitCode).toBe(0);
}

// Variants about rate limits wait on the real ceiling: they start first, as in the kill matrix.
const byCost = (names: readonly VariantName[]) => [...names].sort((a, b) => Number(VARIANTS[b].rateLimits === true) - Number(VARIANTS[a].rateLimits === true));

describe.concurrent('tolerance matrix', () => {
  for (const name of byCost(Object.keys(VARIANTS) as VariantName[])) {
    test(`${name} is conformant (${VARIANTS[name].openPoint})`, () => expectTolerated(name));
  }
  for (const name of DOCUMENT_ONLY_SAMPLE) {
    test(`${name} is never non-conformant under the document-only profile`, () => expectTolerated(name, { documentOnly: true }));
  }
});
