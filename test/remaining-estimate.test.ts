import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { referenceProfile } from '../reference/server.js';
import { slowReference, spawnConformance } from './support/spawned.js';

// Issue 31: the wait line's "the run needs about N s more" comes from the run's schedule and counts
// down; once the run is under way it is within 25 % of the time the run really still took.

/** Short windows, so that a run a dozen windows long takes seconds: the run waits on every window, as at real limits. */
const WINDOW_SECONDS = 4;

test('at short windows, the remaining time the heartbeat names counts down, rises only toward the truth, and is within 25 % of it once the run is under way', async () => {
  // One key of 10 requests a window for the general and error checks' hundred (but the explorer's
  // header catalogue of GEN-1, a hundred more), whose requests do not depend on the target's data (the estimates were measured on the embedded reference's): the run
  // waits on a dozen windows. The seed and the second account's key are those of the estimates.
  const ref = await slowReference(WINDOW_SECONDS, 10, referenceProfile());
  const run = spawnConformance(
    [
      '--profile',
      ref.profileFile,
      '--report-dir',
      join(ref.cwd, 'reports'),
      '--only',
      'GEN-2,GEN-3,GEN-4,GEN-5,ERR',
      '--max-keys',
      '1',
      '--property-runs',
      '10',
      '--seed',
      '1',
    ],
    // With the second account's key, as the request estimates were measured.
    { ...ref.env, CONFORMANCE_OTHER_ACCOUNT_API_KEY: ref.target.keys.other },
    ref.cwd,
  );
  try {
    const { code } = await run.done;
    expect(code, run.text()).toBe(0);
    // Times on the run's own clock, not when this process read the line: on a machine busy with the
    // other tests, a line was read seconds after it was written (said 17 s at 28.3 s, truth 12.1 s).
    // A wait line says when it was written: "waiting W s more ..., until HH:MM:SS UTC"; the run
    // ended when its report says.
    const report = JSON.parse(readFileSync(join(ref.cwd, 'reports', 'conformance.json'), 'utf8')) as { endedAt: string };
    const endWall = Date.parse(report.endedAt);
    const writtenAt = (text: string): number | null => {
      const wait = /waiting (\d+) s more for .*until (\d\d):(\d\d):(\d\d) UTC/.exec(text);
      if (!wait) return null;
      const day = new Date(run.startedAt);
      let until = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), Number(wait[2]), Number(wait[3]), Number(wait[4]));
      if (until < run.startedAt - 12 * 3600_000) until += 24 * 3600_000;
      return until - Number(wait[1]) * 1000;
    };
    const readings = run.lines.flatMap((l) => {
      const said = /the run needs about (\d+) s more/.exec(l.text);
      const wall = writtenAt(l.text) ?? l.at + run.startedAt;
      return said ? [{ at: wall - run.startedAt, saidS: Number(said[1]), truthS: (endWall - wall) / 1000 }] : [];
    });
    const shown = readings.map((r) => `at ${(r.at / 1000).toFixed(1)} s: said ${r.saidS} s, truth ${r.truthS.toFixed(1)} s`).join('\n');
    expect(readings.length, run.text()).toBeGreaterThanOrEqual(3);
    // "After the first minute" at 60-s windows is after the first window: here, after the first 4 s,
    // and while at least a window remains. Beside the 25 %: a second of rounding (whole seconds), and
    // half a second for when the line is read here, which a machine busy with the other tests delays.
    const judged = readings.filter((r) => r.at >= WINDOW_SECONDS * 1000 && r.truthS >= WINDOW_SECONDS);
    expect(judged.length, shown).toBeGreaterThanOrEqual(2);
    for (const r of judged) expect(Math.abs(r.saidS - r.truthS), shown).toBeLessThanOrEqual(0.25 * r.truthS + 1.5);
    // It counts down: a reading above the one before is news, said only when the estimate has moved
    // past the countdown by more than its accuracy (src/run/heartbeat.ts, countingDown; its rule is
    // held exactly in heartbeat.test.ts). Here, where the truth is known: a rise brings the figure
    // closer to the truth than the countdown it replaced (the one before, less the time since),
    // never further from it; a second for whole seconds.
    for (let i = 1; i < readings.length; i++) {
      const [before, now] = [readings[i - 1]!, readings[i]!];
      if (now.saidS <= before.saidS) continue;
      const countdown = before.saidS - (now.at - before.at) / 1000;
      expect(Math.abs(now.saidS - now.truthS), `a rise away from the truth at ${(now.at / 1000).toFixed(1)} s\n${shown}`).toBeLessThanOrEqual(
        Math.abs(countdown - now.truthS) + 1,
      );
    }
    console.log(`remaining-time readings at ${WINDOW_SECONDS}-s windows:\n${shown}`);
  } finally {
    run.child.kill('SIGKILL');
    await ref.target.close();
  }
}, 120_000);
