import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from './support/cli.js';
import type { TestSpecification } from 'vitest/node';
import { shuffled, STARTS_FIRST } from './support/sequencer.js';

// A name the sequencer does not find starts nowhere in particular, silently: the matrices would
// fall back to vitest's order, which on a fresh clone puts them last (test/support/sequencer.ts).
test('every file the sequencer starts first exists and is a test file of npm test', () => {
  for (const file of STARTS_FIRST) {
    expect(file, file).toMatch(/^test\/.+\.test\.ts$/);
    expect(existsSync(join(ROOT, file)), file).toBe(true);
  }
  expect(new Set(STARTS_FIRST).size).toBe(STARTS_FIRST.length);
});

// A file finds what the file before it in its thread left (isolate: false); the stress script runs
// each npm test in an order of its own to find such a file, and a red order must come back.
test('a shuffled order is the seed’s alone: every file once, the same for the same seed wherever the files were found, another for another seed', () => {
  const files = Array.from(
    { length: 40 },
    (_, i) => ({ moduleId: `/clone/test/file-${i}.test.ts`, project: { config: { root: '/clone' } } }) as unknown as TestSpecification,
  );
  const names = (order: TestSpecification[]) => order.map((spec) => spec.moduleId);
  const once = names(shuffled(files, 'a1b2c3d4'));
  expect([...once].sort()).toEqual(names(files).sort());
  expect(names(shuffled([...files].reverse(), 'a1b2c3d4'))).toEqual(once);
  expect(names(shuffled(files, '0badf00d'))).not.toEqual(once);
  expect(once).not.toEqual(names(files));
  // Another clone's folder, the same order: the seed in a red run's log gives it on any machine.
  const elsewhere = files.map(
    (spec) => ({ moduleId: spec.moduleId.replace('/clone/', '/ci/work/'), project: { config: { root: '/ci/work' } } }) as unknown as TestSpecification,
  );
  expect(names(shuffled(elsewhere, 'a1b2c3d4')).map((id) => id.replace('/ci/work/', '/clone/'))).toEqual(once);
});
