import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from './support/cli.js';

// vitest.config.ts runs the files of a thread on one set of modules (`isolate: false`): what a file
// leaves in a module, the next file of its thread finds. These are the ways a file could leave one
// changed for the next, each refused where a file is written rather than found as a flaky test.

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const FILES = testFiles(join(ROOT, 'test')).map((path) => ({ name: relative(ROOT, path), text: readFileSync(path, 'utf8') }));

/** vitest's replacements of a module, a global, the environment or the timers: they outlive the file that made them. */
const REPLACEMENTS = /\bvi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers|spyOn)\(/;

test('no test file replaces a module, a global, the environment or the timers', () => {
  expect(FILES.filter(({ text }) => REPLACEMENTS.test(text.replace(/\/\/.*$/gm, ''))).map(({ name }) => name)).toEqual([]);
});

test("a test file that sets the suite's clock puts the real clock back", () => {
  const setting = FILES.filter(({ text }) => /\buseClock\((?!REAL_CLOCK\))/.test(text));
  expect(setting.length).toBeGreaterThan(0);
  expect(setting.filter(({ text }) => !text.includes('useClock(REAL_CLOCK)')).map(({ name }) => name)).toEqual([]);
});
