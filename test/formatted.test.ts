import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { expect, test } from 'vitest';
import { ROOT } from './support/cli.js';

// The code is formatted by Prettier (.prettierrc.json): `npm run format` fixes what this finds.
test('every TypeScript and JavaScript file is formatted as `npm run format` leaves it', async () => {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.mjs'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  const unformatted: string[] = [];
  for (const file of files) {
    const path = join(ROOT, file);
    const options = await prettier.resolveConfig(path);
    if (!(await prettier.check(readFileSync(path, 'utf8'), { ...options, filepath: path }))) unformatted.push(file);
  }
  expect(files.length).toBeGreaterThan(100);
  expect(unformatted).toEqual([]);
  // No timeout of its own: some ten CPU-seconds of Prettier, which a stress run beside a busy core
  // and the matrices stretched past the 60 s this test once had (a hang guard, not a measure of
  // speed: bench/ measures that). The suite's own bound (vitest.config.ts) still ends a hang.
});
