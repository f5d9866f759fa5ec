import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { referenceProfile } from '../reference/server.js';
import { countingDown, startHeartbeat, type Said } from '../src/run/heartbeat.js';
import { slowReference, spawnConformance } from './support/spawned.js';

// Issue 23: a run never goes silent in a CI log while it waits; what it says it waits for is true.

describe('the heartbeat', () => {
  test('in a CI log (no TTY), a run waiting on 20-s windows prints a line at least every 10 s', async () => {
    // One key of 30 requests a window for the pagination checks' hundreds: most of the run waits.
    const ref = await slowReference(20, 30, referenceProfile());
    const run = spawnConformance(
      ['--profile', ref.profileFile, '--report-dir', join(ref.cwd, 'reports'), '--only', 'PAG', '--max-keys', '1'],
      ref.env,
      ref.cwd,
    );
    try {
      await run.waitFor(/^conformance: /, 60_000);
      const from = run.lines.at(-1)!.at;
      await new Promise((resolve) => setTimeout(resolve, 45_000));
      const watched = run.lines.filter((l) => l.at >= from).map((l) => l.at);
      const times = [...watched, Date.now() - run.startedAt];
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      console.log(`45 s of a paced run at 20-s windows: ${watched.length} lines, longest silence ${Math.max(...gaps)} ms`);
      // 10 s, and half a second for the scheduling of a busy CI machine.
      expect(Math.max(...gaps), run.text()).toBeLessThanOrEqual(10_500);
      expect(run.text()).toMatch(/… waiting \d+ s more for the rate-limit window \(the main key\), \d+ s so far, until \d\d:\d\d:\d\d UTC/);
    } finally {
      run.child.kill('SIGKILL');
      await ref.target.close();
    }
  });

  test('names the wait as the pacer now knows it, not its first guess, and speaks again before 10 s of silence', () => {
    let now = 0;
    const lines: string[] = [];
    let wait = { who: 'the main key', what: 'the rate-limit window', since: 0, until: 3000 };
    const beat = startHeartbeat({
      io: { out: (line) => lines.push(line), err: (line) => lines.push(line) },
      waits: () => [wait],
      live: null,
      tickMs: 1_000_000,
      now: () => now,
    });
    try {
      // No estimate until the run hands it one (the execution stage, once the checks start).
      now = 500;
      beat.tick();
      expect(lines).toEqual(['  … waiting 3 s more for the rate-limit window (the main key), 1 s so far, until 00:00:03 UTC']);
      lines.length = 0;
      beat.countDown(() => 42);
      now = 1000;
      wait = { ...wait, since: 1 };
      beat.tick();
      expect(lines).toEqual(['  … waiting 2 s more for the rate-limit window (the main key), 1 s so far, until 00:00:03 UTC; the run needs about 42 s more']);
      // The window ended and revealed another: the wait now ends at 61 s, and that is what is said next.
      wait = { ...wait, until: 61_000 };
      now = 5000;
      beat.tick();
      expect(lines).toHaveLength(1);
      now = 11_000;
      beat.tick();
      expect(lines[1]).toBe('  … waiting 50 s more for the rate-limit window (the main key), 11 s so far, until 00:01:01 UTC; the run needs about 42 s more');
      // Anything the run says resets the silence.
      now = 15_000;
      beat.io.out('  pagination (PAG)   85 pass');
      now = 23_000;
      beat.tick();
      expect(lines).toHaveLength(3);
      now = 24_000;
      beat.tick();
      expect(lines).toHaveLength(4);
    } finally {
      beat.stop();
    }
  });

  test('counts down one second a second: an estimate above the countdown by less than a quarter keeps it going; a larger rise, or a fall, is said', () => {
    const said: (number | null)[] = [];
    let last: Said | null = null;
    // [estimate, ms since the start]: readings a second apart, then a reading 3 s later.
    const readings: [number | null, number][] = [
      [null, 0],
      [40, 1000],
      [37, 2000],
      [38.5, 3000], // above 36 by 2.5, within a quarter: 36
      [35, 4000], // above 35? equal: said
      [47, 7000], // 3 s later: above 32 by 15, more than a quarter: news
      [30, 8000], // a fall: said at once
      [31, 9000], // above 29 by 2: 29
    ];
    for (const [estimate, at] of readings) said.push((last = countingDown(last, estimate, at))?.s ?? null);
    expect(said).toEqual([null, 40, 37, 36, 35, 47, 30, 29]);
  });
});
