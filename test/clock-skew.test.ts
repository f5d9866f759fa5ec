import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { startReference } from '../reference/server.js';
import { readReport, runCli } from './support/cli.js';
import { describe429s } from './support/rate-evidence.js';

// A CI runner or a laptop whose clock is 90 s off the server's: the suite's process alone runs on a
// moved clock (Debian's libfaketime, preloaded into it and the test workers it starts), the
// reference runs on the machine's. Every time the API sends is read on the API's clock, its Date
// headers, so the run is conformant, and the report states the skew it measured.

const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
// In CI a missing libfaketime fails the test; on a developer's machine it is skipped with this reason.
const MISSING = existsSync(LIBFAKETIME) ? null : `${LIBFAKETIME} is missing: apt-get install -y faketime (.ci/run does it)`;
const SKIP = MISSING !== null && !process.env.CI;

/** The run, on a clock moved by `faked` (libfaketime's FAKETIME), against a reference of its own on the machine's clock. */
async function skewedRun(faked: string) {
  const reference = await startReference({ windowSeconds: 1 });
  try {
    const profileFile = join(mkdtempSync(join(tmpdir(), 'profile-')), 'profile.json');
    writeFileSync(profileFile, JSON.stringify(reference.profile));
    return await runCli(
      ['--profile', profileFile],
      {
        CONFORMANCE_BASE_URL: reference.url,
        CONFORMANCE_API_KEY: reference.keys.main,
        CONFORMANCE_OTHER_ACCOUNT_API_KEY: reference.keys.other,
        LD_PRELOAD: LIBFAKETIME,
        FAKETIME: faked,
      },
      // libfaketime is preloaded into a process as it starts.
      { process: true },
    );
  } finally {
    await reference.close();
  }
}

describe.skipIf(SKIP).concurrent(`the suite on a clock 90 s off the target's${SKIP ? ` (skipped: ${MISSING})` : ''}`, () => {
  for (const [way, faked, offsetMs] of [
    ['fast', '+90s', -90_000],
    ['slow', '-90s', 90_000],
  ] as const) {
    test(`90 s ${way}: conformant, no unplanned 429, and the report states the skew it measured`, async () => {
      const result = await skewedRun(faked);
      const report = readReport(result);
      const failed = report.clauses.filter((c) => c.status !== 'pass').map((c) => `${c.id} ${c.status}: ${c.checks.map((k) => k.reason).join('; ')}`);
      expect(failed).toEqual([]);
      expect(result.exitCode).toBe(0);
      expect(report.environment.unplanned429, describe429s(result.reportDir)).toBe(0);
      expect(report.clock?.apart).toBe(true);
      expect(Math.abs(report.clock!.offsetMs! - offsetMs)).toBeLessThan(2_000);
      const summary = readFileSync(join(result.reportDir, 'summary.md'), 'utf8');
      // The figure is the measured one (within 2 s, above): under load 89.7 s (±343 ms) was right, and no 9x.x.
      expect(summary).toMatch(new RegExp(`clock: the target's clock is \\d+\\.\\d s ${offsetMs < 0 ? 'behind' : 'ahead of'} the suite's`));
      expect(result.stdout).toMatch(/^clock: the target's clock is/m);
    });
  }
});
