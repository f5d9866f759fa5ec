import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './support/cli.js';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { compiledUrl } from '../bin/compiled.mjs';

// The CLI runs its sources compiled ahead of time (bin/compiled.mjs); a compilation that lagged
// behind the sources would run old code, and one that failed must leave the run to tsx.

function fakePackage(): string {
  const root = mkdtempSync(join(tmpdir(), 'compiled-'));
  writeFileSync(join(root, 'package.json'), '{"type":"module"}');
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src/main.ts'), "import { answer } from './answer.js';\nexport const value: number = answer;\n");
  writeFileSync(join(root, 'src/answer.ts'), 'export const answer: number = 1;\n');
  return root;
}

test('the compiled sources run, and a changed source is compiled again', async () => {
  const root = fakePackage();
  const first = await compiledUrl('src/main.ts', root);
  expect(first).not.toBeNull();
  expect(fileURLToPath(first!)).toContain(join(root, 'node_modules/.cache/'));
  expect((await import(first!)).value).toBe(1);
  expect(await compiledUrl('src/main.ts', root)).toBe(first);

  writeFileSync(join(root, 'src/answer.ts'), 'export const answer: number = 2;\n');
  utimesSync(join(root, 'src/answer.ts'), new Date(), new Date(Date.now() + 5000));
  const second = await compiledUrl('src/main.ts', root);
  expect(second).not.toBe(first);
  expect((await import(second!)).value).toBe(2);
});

test('sources that do not compile leave the run to tsx', async () => {
  const root = fakePackage();
  writeFileSync(join(root, 'src/answer.ts'), 'export const answer: number = ;\n');
  expect(await compiledUrl('src/main.ts', root)).toBeNull();
});

test('a compiled module finds its own package, also where node_modules is a link to another clone', async () => {
  const other = fakePackage();
  mkdirSync(join(other, 'node_modules'));
  const root = fakePackage();
  symlinkSync(join(other, 'node_modules'), join(root, 'node_modules'));
  copyFileSync(join(ROOT, 'src/package-root.ts'), join(root, 'src/package-root.ts'));
  writeFileSync(join(root, 'src/main.ts'), "export { PACKAGE_ROOT } from './package-root.js';\n");
  const compiled = await compiledUrl('src/main.ts', root);
  expect((await import(compiled!)).PACKAGE_ROOT).toBe(join(root, '/'));
});
