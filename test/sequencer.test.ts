import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from './support/cli.js';
import { STARTS_FIRST } from './support/sequencer.js';

// A name the sequencer does not find starts nowhere in particular, silently: the matrices would
// fall back to vitest's order, which on a fresh clone puts them last (test/support/sequencer.ts).
test('every file the sequencer starts first exists and is a test file of npm test', () => {
  for (const file of STARTS_FIRST) {
    expect(file, file).toMatch(/^test\/.+\.test\.ts$/);
    expect(existsSync(join(ROOT, file)), file).toBe(true);
  }
  expect(new Set(STARTS_FIRST).size).toBe(STARTS_FIRST.length);
});
