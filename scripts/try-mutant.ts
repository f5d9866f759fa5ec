import { mutantNamed, type MutantName } from '../mutants/index.js';
import { referenceProfile } from '../reference/server.js';
import { runAgainstReference } from '../test/support/cli.js';
import { judgeKill, killRun } from '../test/support/kill.js';

// `node --import tsx scripts/try-mutant.ts NAME`: one kill-matrix run, for writing a mutant.
const name = process.argv[2] as MutantName;
const mutant = mutantNamed(name);
const { target, args } = killRun(mutant, referenceProfile());
const run = await runAgainstReference(target, args);
const { missed, unexpected } = judgeKill(mutant, run.report);
console.log(`${name}: verdict ${run.report.verdict}, exit ${run.exitCode}, report ${run.reportDir}`);
for (const line of missed) console.log(`  MISSED: ${line}`);
for (const line of unexpected) console.log(`  UNEXPECTED: ${line}`);
process.exit(missed.length + unexpected.length === 0 ? 0 : 1);
