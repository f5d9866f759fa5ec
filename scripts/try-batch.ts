import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Mutant } from '../mutants/mutant.js';
import { referenceProfile } from '../reference/server.js';
import { runAgainstReference } from '../test/support/cli.js';
import { judgeKill, touchesRate } from '../test/support/kill.js';
import { matrixArgs, matrixTarget } from '../test/support/matrix.js';

// `node --import tsx scripts/try-batch.ts DIR [NAME...]`: a batch of faults written elsewhere (a
// folder of mutant modules, each `export default defineMutant(...)`), each run whole (every family,
// not the kill matrix's selection: a batch measures what the whole run sees), and judged as the
// kill matrix judges: caught on its declared clauses, and what else it flagged.
const [dir, ...only] = process.argv.slice(2);
if (!dir) throw new Error('usage: try-batch.ts DIR [NAME...]');
const names = readdirSync(dir)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.replace(/\.ts$/, ''))
  .filter((name) => only.length === 0 || only.includes(name));
let caught = 0;
for (const name of names) {
  const mutant = (await import(pathToFileURL(resolve(join(dir, `${name}.ts`))).href)).default as Mutant;
  let run: Awaited<ReturnType<typeof runAgainstReference>>;
  try {
    run = await runAgainstReference(matrixTarget(mutant.modify, referenceProfile()), matrixArgs(touchesRate(mutant)));
  } catch (error) {
    // An inconclusive run (exit 2) has no verdict to judge: it says why, and the batch goes on.
    const verdictLine = String((error as Error).message)
      .split('\n')
      .find((line) => line.startsWith('verdict:'));
    console.log(`INCONCLUSIVE ${name}: ${verdictLine ?? String((error as Error).message).split('\n')[0]}`);
    continue;
  }
  const { missed, unexpected } = judgeKill(mutant, run.report);
  if (missed.length === 0) caught++;
  console.log(`${missed.length === 0 ? 'CAUGHT' : 'MISSED'} ${name}: verdict ${run.report.verdict}, report ${run.reportDir}`);
  for (const line of missed) console.log(`  missed: ${line}`);
  for (const line of unexpected) console.log(`  also: ${line.slice(0, 300)}`);
}
console.log(`${caught} of ${names.length} caught on their clauses`);
