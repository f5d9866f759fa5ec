import { execFile, execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { ROOT } from './support/cli.js';

const exec = promisify(execFile);

// The code is formatted by Prettier (.prettierrc.json): `npm run format` fixes what this finds.
// Prettier's own cache keeps the files it found formatted, by their content: a run after an edit
// checks what changed, some ten CPU-seconds fewer than checking every file each time (a fresh
// clone, with no cache yet, checks them all).
const PRETTIER = createRequire(import.meta.url).resolve('prettier/bin/prettier.cjs');
const CACHE = join(ROOT, 'node_modules/.cache/prettier-formatted');

test('every TypeScript and JavaScript file is formatted as `npm run format` leaves it', async () => {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.mjs'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  expect(files.length).toBeGreaterThan(100);
  const args = [PRETTIER, '--check', '--cache', '--cache-strategy', 'content', '--cache-location', CACHE, '--', ...files];
  const result = await exec(process.execPath, args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code, output: `${error.stdout ?? ''}${error.stderr ?? ''}` }),
  );
  // Exit 1: files not formatted, each on a line of its own; anything else is Prettier failing.
  const unformatted = result.output
    .split('\n')
    .map((line) => /^\[warn\] (.+)$/.exec(line)?.[1])
    .filter((file): file is string => file !== undefined && files.includes(file));
  expect(unformatted).toEqual([]);
  expect(result.code, result.output).toBe(0);
  // No timeout of its own: some ten CPU-seconds of Prettier on a fresh clone, which a stress run
  // beside a busy core and the matrices stretched past the 60 s this test once had (a hang guard,
  // not a measure of speed: bench/ measures that). The suite's own bound (vitest.config.ts) still ends a hang.
});
