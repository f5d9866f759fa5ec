import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReference, type ReferenceOptions, type RunningReference } from '../../reference/server.js';
import { loadProfile, type Profile } from '../../src/profile/profile.js';
import type { ConformanceDocument } from '../../src/report/document.js';

import { readReport, ROOT, runCli, type CliResult } from './run-cli.js';
import { onSimulatedClock, SIMULATED_RUN_ENV } from './simulated.js';

export { DIRECT_RUN, readReport, ROOT, runCli, type CliResult } from './run-cli.js';

/** How long a test waits for a shared run another test file started. */
const SHARED_RUN_WAIT_MS = 300_000;

/**
 * `runCli(args)` for a run several test files ask for alike (a whole default run against the
 * embedded reference): made once by the first to ask, read by the others from the test run's
 * scratch folder (test/support/global-setup.ts), so that one `npm test` makes it once.
 */
export async function sharedRun(args: readonly string[]): Promise<CliResult> {
  const dir = join(tmpdir(), `shared-run-${createHash('sha256').update(JSON.stringify(args)).digest('hex').slice(0, 16)}`);
  const file = join(dir, 'result.json');
  try {
    mkdirSync(dir);
  } catch {
    // Another test file made the folder first: its run is under way, or done.
    const until = Date.now() + SHARED_RUN_WAIT_MS;
    while (!existsSync(file)) {
      if (Date.now() > until) throw new Error(`the shared run ${JSON.stringify(args)} did not end within ${SHARED_RUN_WAIT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return JSON.parse(readFileSync(file, 'utf8')) as CliResult;
  }
  const result = await runCli(args);
  // Written whole, then renamed: a reader never sees half of it.
  writeFileSync(`${file}.tmp`, JSON.stringify(result));
  renameSync(`${file}.tmp`, file);
  return result;
}

/**
 * The profile of a run that knows nothing the document leaves open: the document-only profile,
 * with the target's limits (stated by the document, but shortened for tests).
 */
export function documentOnly(target: Profile): Profile {
  return { ...loadProfile(join(ROOT, 'profiles/document.json')).profile, limits: target.limits };
}

/**
 * Starts a reference and runs the CLI against it as a remote target, under the profile the
 * reference serves, or under `cliProfile` (what the run is told).
 *
 * On the simulated clock unless told `clock: 'real'` (src/clock.ts): the profile's own window
 * (60 s), whose waits take no time and which a loaded machine cannot shorten. In real time, a
 * window of 1 s unless told otherwise: for what only real time shows (docs/architecture.md, "Time").
 */
export async function runAgainstReference(
  reference: ReferenceOptions = {},
  args: readonly string[] = [],
  cliProfile?: (served: Profile) => Profile,
): Promise<CliResult & { report: ConformanceDocument; target: RunningReference }> {
  const simulated = reference.clock !== 'real';
  const target = await startReference(simulated ? onSimulatedClock(reference) : { windowSeconds: 1, ...reference });
  try {
    const profileFile = join(mkdtempSync(join(tmpdir(), 'profile-')), 'profile.json');
    writeFileSync(profileFile, JSON.stringify(cliProfile ? cliProfile(target.profile) : target.profile));
    const result = await runCli(['--profile', profileFile, ...args], {
      CONFORMANCE_BASE_URL: target.url,
      CONFORMANCE_API_KEY: target.keys.main,
      CONFORMANCE_OTHER_ACCOUNT_API_KEY: target.keys.other,
      // A reference that reads the run's time from its requests is checked by a run on the simulated clock.
      ...(simulated ? SIMULATED_RUN_ENV : {}),
    });
    if (result.exitCode === 2) throw new Error(`the run was inconclusive: ${result.stderr || result.stdout}`);
    return { ...result, report: readReport(result), target };
  } finally {
    await target.close();
  }
}
