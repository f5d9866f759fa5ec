import { mutantNamed, type MutantName } from '../../mutants/index.js';
import { referenceProfile } from '../../reference/server.js';
import { runAgainstReference } from './cli.js';
import { killRun } from './kill.js';

// Run inside a network namespace (test/network/forwarded-address.test.ts): one kill-matrix run of a
// mutant, or of the reference itself ("reference"), served at the address the namespace gives its
// test host, and the suite's report of it on stdout as one line of JSON.
//   node --import tsx test/support/in-namespace-kill.ts <mutant|reference> <host address>

const [name, host] = process.argv.slice(2) as [string, string];
const mutant = mutantNamed((name === 'reference' ? 'rate-ip-from-forwarded-for' : name) as MutantName);
const { target, args } = killRun(mutant, referenceProfile());
const { modify, ...served } = target;
const run = await runAgainstReference({ ...served, ...(name === 'reference' || !modify ? {} : { modify }), host }, args);
process.stdout.write(
  `${JSON.stringify({ exitCode: run.exitCode, clauses: run.report.clauses.map((c) => ({ id: c.id, status: c.status, reason: c.reason ?? null })) })}\n`,
);
