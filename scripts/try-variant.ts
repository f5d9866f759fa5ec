import { referenceProfile } from '../reference/server.js';
import { variantNamed, type VariantName } from '../variants/index.js';
import { documentOnly, runAgainstReference } from '../test/support/cli.js';
import { matrixArgs, matrixTarget } from '../test/support/matrix.js';
import { judgeTolerance } from '../test/support/tolerance.js';

// `node --import tsx scripts/try-variant.ts NAME [--document-only]`: one tolerance-matrix run of
// the variant alone, for writing a variant, or for telling which of the variants that shared a
// failed run in the matrix (test/support/tolerance.ts) the false finding is. Prints the false
// findings, if any, and the report folder.
const [name, flag] = process.argv.slice(2) as [VariantName, string | undefined];
const variant = variantNamed(name);
const rateLimits = variant.rateLimits === true;
const served = (variant.profile ?? ((p) => p))(referenceProfile());
const documentOnlyRun = flag === '--document-only';
const run = await runAgainstReference(matrixTarget(variant.modify, served), matrixArgs(rateLimits), documentOnlyRun ? documentOnly : undefined);
const { falseFindings } = judgeTolerance(variant, run.report, { documentOnly: documentOnlyRun });
console.log(`${name}: verdict ${run.report.verdict}, exit ${run.exitCode}, report ${run.reportDir}`);
for (const finding of falseFindings) console.log(`  FALSE: ${finding}`);
process.exit(falseFindings.length === 0 && run.exitCode === 0 ? 0 : 1);
