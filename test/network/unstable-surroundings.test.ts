import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { referenceProfile, startReference } from '../../reference/server.js';
import type { ReferenceState } from '../../reference/state.js';
import type { Profile } from '../../src/profile/profile.js';
import type { ConformanceDocument } from '../../src/report/document.js';
import { documentOnly, readReport } from '../support/cli.js';
import { runAgainst } from '../hostile/run.js';
import { liveRunKeys } from '../support/live-keys.js';
import { startFlakyFrontEnd, startRelay } from '../support/network-faults.js';

// A conformant deployment in ordinary imperfect surroundings (issue 30): a NAT that forgets idle
// connections, a load balancer answering some requests itself during a deploy, a process that
// dies mid-run. The surroundings are not the API: retried where safe, counted in the report, at
// worst an inconclusive run, never a failed clause.

/**
 * What the surroundings break first: reads and writes of every kind, the walks, the keys, and the
 * counts of the rate-limit bursts (RATE-3, RATE-7), which must count only what reached the API.
 */
const SELECTION = ['--only', 'RES,PAG-1,PAG-4,AUTH-1,AUTH-3,KEY-1,KEY-5,RATE-3,RATE-7,GEN-3,ERR-1,RATE-9', '--property-runs', '10'];

const PROFILES: Record<string, (served: Profile) => Profile> = {
  "the reference's profile": (served) => served,
  'the document-only profile': documentOnly,
};

/** Every clause that failed or warned, with its reason: none may be the surroundings'. */
function flagged(report: ConformanceDocument): string[] {
  return report.clauses.filter((c) => ['fail', 'warn', 'error'].includes(c.status)).map((c) => `${c.id} ${c.status}: ${c.reason ?? ''}`);
}

describe('a NAT that resets connections idle for 2 s, on their next packet', () => {
  for (const [name, profileOf] of Object.entries(PROFILES)) {
    test(`with ${name}: conformant, no idle connection reused past it, the network counted`, async () => {
      // 3-s windows: the bursts wait a whole window on a fresh budget, idling past the NAT's timeout.
      const reference = await startReference({ windowSeconds: 3, records: 120 });
      const nat = await startRelay(reference.url, { idleMs: 2000 });
      try {
        const result = await runAgainst({ url: nat.url, keys: reference.keys, profile: profileOf(reference.profile) }, SELECTION);
        const report = readReport(result);
        expect(flagged(report), result.stdout + result.stderr).toEqual([]);
        expect([report.verdict, result.exitCode]).toEqual(['conformant', 0]);
        // No idle connection was reused past the NAT's timeout, and every key was deleted.
        expect(nat.resets).toBe(0);
        expect(report.network!.resets).toBe(0);
        expect(report.because).not.toMatch(/key left/);
        expect(result.stdout).toMatch(/^network: /m);
      } finally {
        await nat.close();
        await reference.close();
      }
    }, 240_000);
  }
});

describe('a front end answering one request in 25 itself with a 502, 503 or 504 (JSON and HTML, with and without Retry-After)', () => {
  for (const [name, profileOf] of Object.entries(PROFILES)) {
    test(`with ${name}: conformant, every front-end answer retried and counted`, async () => {
      // Windows of 2 s: a read retried after a front end's Retry-After of 1 s must not cost its burst the window.
      const reference = await startReference({ windowSeconds: 2, records: 120 });
      const frontEnd = await startFlakyFrontEnd(reference.url, { every: 25 });
      try {
        const result = await runAgainst({ url: frontEnd.url, keys: reference.keys, profile: profileOf(reference.profile) }, SELECTION);
        const report = readReport(result);
        expect(flagged(report), result.stdout + result.stderr).toEqual([]);
        expect([report.verdict, result.exitCode]).toEqual(['conformant', 0]);
        const answered = [...frontEnd.answered.values()].reduce((a, b) => a + b, 0);
        expect(answered).toBeGreaterThan(10);
        expect([...frontEnd.answered.keys()].sort()).toEqual([502, 503, 504]);
        expect(report.network).toMatchObject({ frontEndAnswers: answered, unanswered: 0 });
        expect(report.because).not.toMatch(/key left/);
        expect(report.network!.retriesBy['front-end']).toBe(answered);
        expect(result.stdout).toMatch(new RegExp(`network: ${report.network!.retries} attempt\\(s\\) sent again .*${answered} front-end answer\\(s\\)`));
        expect(readFileSync(join(result.reportDir, 'junit.xml'), 'utf8')).toContain(`<property name="network.frontEndAnswers" value="${answered}"/>`);
      } finally {
        await frontEnd.close();
        await reference.close();
      }
    }, 240_000);
  }
});

describe('a target that dies mid-run, at real 60-s windows', () => {
  test('inconclusive, exit 2, ended within 30 s of its death; the header says the target stopped answering; keys left are named with the cleanup command', async () => {
    let state: ReferenceState | null = null;
    const reference = await startReference({ profile: referenceProfile(), records: 120, modify: (app) => void (state = app.state) });
    const relay = await startRelay(reference.url);
    let diedAt = 0;
    // Killed once the run is into its rate-limit checks, which hold a key of their own and wait for
    // windows. Not at a fixed time: how long the run takes to get there depends on where in the
    // target's window it started (the schedule), from a few seconds to a minute.
    const killer = setInterval(() => {
      if (!liveRunKeys(state!.store.accounts).some((name) => name.endsWith('-rate-limits'))) return;
      clearInterval(killer);
      diedAt = Date.now();
      relay.kill();
    }, 100);
    try {
      const result = await runAgainst({ url: relay.url, keys: reference.keys, profile: reference.profile }, [
        '--only',
        'AUTH,KEY,RATE',
        '--property-runs',
        '10',
      ]);
      const endedAt = Date.now();
      const output = result.stdout + result.stderr;
      expect(diedAt, output).toBeGreaterThan(0);
      expect(endedAt - diedAt, output).toBeLessThan(30_000);
      expect(result.exitCode, output).toBe(2);
      const report = readReport(result);
      const gone = /the target stopped answering at \d\d:\d\d:\d\d UTC: .*(refused|failed)( in a row)?/;
      expect(report.verdict).toBe('inconclusive');
      expect(report.stopped?.kind).toBe('target-gone');
      expect(report.because).toMatch(gone);
      expect(report.clauses.filter((c) => c.status === 'fail').map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
      expect(readFileSync(join(result.reportDir, 'summary.md'), 'utf8').split('\n').slice(0, 8).join('\n')).toMatch(gone);
      expect(readFileSync(join(result.reportDir, 'report.html'), 'utf8')).toMatch(gone);
      expect(result.stderr).toMatch(gone);
      expect(liveRunKeys(state!.store.accounts).length, output).toBeGreaterThan(0);
      expect(result.stderr).toMatch(/key\(s\) still live on the target: delete them with: npx conformance cleanup --report-dir .*\n {2}conformance-/);
    } finally {
      clearInterval(killer);
      await relay.close();
      await reference.close();
    }
  }, 240_000);
});
