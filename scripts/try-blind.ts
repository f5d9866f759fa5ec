import { runBlind, type BlindName } from '../test/support/blind.js';
import { documentOnly, readReport } from '../test/support/cli.js';

// `node --import tsx scripts/try-blind.ts python|node|enterprise|asgi|flask|express|php|ruby|go [own|doc|own-minus:fact,fact]`: one
// run against a blind implementation, under its own profile, the document-only one, or its own
// with those top-level facts left undeclared; WINDOW_SECONDS sets its window (1 by default).
const [name = 'node', mode = 'own'] = process.argv.slice(2) as [BlindName, string];
const minus = mode.startsWith('own-minus:') ? mode.slice('own-minus:'.length).split(',') : [];
const result = await runBlind(
  name,
  (own) => (mode === 'doc' ? documentOnly(own) : { ...own, ...Object.fromEntries(minus.map((fact) => [fact, undefined])) }),
  Number(process.env.WINDOW_SECONDS ?? 1),
);
const report = readReport(result);
console.log(
  `${name} (${mode}): verdict ${report.verdict}, complete ${report.complete}, exit ${result.exitCode}, unplanned 429 ${report.environment.unplanned429}, report ${result.reportDir}`,
);
for (const c of report.clauses) if (!['pass', 'not_applicable'].includes(c.status)) console.log(`  ${c.id} ${c.status}: ${c.reason ?? ''}`);
