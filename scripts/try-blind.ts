import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBlind, type BlindName } from '../test/support/blind.js';
import { documentOnly, readReport, runCli } from '../test/support/cli.js';

// `node --import tsx scripts/try-blind.ts node|python [own|doc|own-minus:fact,fact]`: one run against a blind
// implementation, under its own profile or the document-only one, and what it flagged.
const [name = 'node', mode = 'own'] = process.argv.slice(2) as [BlindName, string];
const blind = await startBlind(Number(process.env.WINDOW_SECONDS ?? 1), name);
try {
  const file = join(mkdtempSync(join(tmpdir(), 'profile-')), 'profile.json');
  // `own-minus:a,b`: its own profile with those top-level facts left undeclared (null).
  const minus = mode.startsWith('own-minus:') ? mode.slice('own-minus:'.length).split(',') : [];
  const profile = mode === 'doc' ? documentOnly(blind.profile) : { ...blind.profile, ...Object.fromEntries(minus.map((fact) => [fact, undefined])) };
  writeFileSync(file, JSON.stringify(profile));
  const result = await runCli(['--profile', file, '--property-runs', '25'], {
    CONFORMANCE_BASE_URL: blind.url,
    CONFORMANCE_API_KEY: blind.keys.main,
    CONFORMANCE_OTHER_ACCOUNT_API_KEY: blind.keys.other,
  });
  const report = readReport(result);
  for (const line of result.stderr.split('\n')) if (line.startsWith('DEBUG')) console.log(line);
  console.log(
    `${name} (${mode}): verdict ${report.verdict}, complete ${report.complete}, exit ${result.exitCode}, unplanned 429 ${report.environment.unplanned429}, report ${result.reportDir}`,
  );
  for (const c of report.clauses) if (!['pass', 'not_applicable'].includes(c.status)) console.log(`  ${c.id} ${c.status}: ${c.reason ?? ''}`);
} finally {
  await blind.close();
}
