import { execFileSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { ROOT } from './support/cli.js';

// Issue 45, then issue 53: a run's settings are read where run() turns them into the parts each
// stage uses (src/run/slices.ts), and by no stage: each stage is handed its part, a narrow type.
// Measured on a real run, as scripts/settings-trail.ts measures it: every read of the settings
// object, and of every object in it, names the function and file that made it. In a process of its
// own: the run starts vitest and takes signals, which a test's worker must not share.

test("a run's settings are read where run() slices them, in a handful of places, and by no stage", () => {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/settings-trail.ts', '--only', 'GEN-2'], { cwd: ROOT, encoding: 'utf8' });
  const lines = out.trim().split('\n');
  const figures = /^(\d+) places in (\d+) files; followed once, (\d+) stays/.exec(lines.at(-1)!);
  expect(figures, out).not.toBeNull();
  const [places, , stays] = figures!.slice(1).map(Number);
  expect(places, out).toBeLessThan(10);
  expect(stays, out).toBeLessThan(10);
  expect(lines[0]).toMatch(/^src\/run\/slices\.ts:/);
  expect(
    lines.filter((line) => line.startsWith('src/run/stages/')),
    out,
  ).toEqual([]);
});
