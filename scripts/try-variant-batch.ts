import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { referenceProfile } from '../reference/server.js';
import { documentOnly, runAgainstReference } from '../test/support/cli.js';
import { matrixArgs, matrixTarget } from '../test/support/matrix.js';
import { judgeTolerance } from '../test/support/tolerance.js';
import type { Variant } from '../variants/variant.js';

// `node --import tsx scripts/try-variant-batch.ts DIR [NAME...]`: a batch of conformant variants
// written elsewhere (a folder of variant modules, each `export default defineVariant(...)`), each run
// as the tolerance matrix runs it, under its truthful profile and under the document-only one, and
// judged as the matrix judges: every false finding printed. The mirror of try-batch.ts for tolerance.
const [dir, ...only] = process.argv.slice(2);
if (!dir) throw new Error('usage: try-variant-batch.ts DIR [NAME...]');
const names = readdirSync(dir)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.replace(/\.ts$/, ''))
  .filter((name) => only.length === 0 || only.includes(name));
let tolerated = 0;
for (const name of names) {
  const variant = (await import(pathToFileURL(resolve(join(dir, `${name}.ts`))).href)).default as Variant;
  const served = (variant.profile ?? ((p) => p))(referenceProfile());
  const lines: string[] = [];
  let clean = true;
  for (const profileRun of ['own', 'document-only'] as const) {
    const told = profileRun === 'document-only';
    try {
      const run = await runAgainstReference(matrixTarget(variant.modify, served), matrixArgs(variant.rateLimits === true), told ? documentOnly : undefined);
      const { falseFindings } = judgeTolerance(variant, run.report, { documentOnly: told });
      lines.push(`${profileRun}: verdict ${run.report.verdict}, exit ${run.exitCode}, report ${run.reportDir}`);
      lines.push(...falseFindings.map((finding) => `  FALSE: ${finding.slice(0, 400)}`));
      clean &&= falseFindings.length === 0 && run.exitCode === 0;
    } catch (error) {
      lines.push(`${profileRun}: INCONCLUSIVE ${String((error as Error).message).split('\n')[0]}`);
      clean = false;
    }
  }
  if (clean) tolerated++;
  console.log(`${clean ? 'TOLERATED' : 'FALSE VERDICT'} ${name}`);
  for (const line of lines) console.log(`  ${line}`);
}
console.log(`${tolerated} of ${names.length} tolerated under both profiles`);
