import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import nodeModule, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { build, compiledUrl } from '../bin/compiled.mjs';
import { readReport, ROOT, runCli } from './support/cli.js';

// The CLI runs its sources built ahead of time (bin/compiled.mjs, into dist/js); a build that
// lagged behind the sources would run old code, and one that failed must leave the run to tsx.

function fakePackage(): string {
  const root = mkdtempSync(join(tmpdir(), 'compiled-'));
  writeFileSync(join(root, 'package.json'), '{"type":"module"}');
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src/main.ts'), "import { answer } from './answer.js';\nexport const value: number = answer;\n");
  writeFileSync(join(root, 'src/answer.ts'), 'export const answer: number = 1;\n');
  return root;
}

/** A module's value in a process of its own: this one keeps the first module it imported from a URL. */
function valueIn(url: string): unknown {
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', `console.log(JSON.stringify((await import('${url}')).value))`], { encoding: 'utf8' }),
  );
}

test('the built sources run, and a changed source is built again', async () => {
  const root = fakePackage();
  const url = await compiledUrl('src/main.ts', root);
  expect(url).not.toBeNull();
  expect(fileURLToPath(url!)).toBe(join(root, 'dist/js/src/main.js'));
  expect(valueIn(url!)).toBe(1);

  writeFileSync(join(root, 'src/answer.ts'), 'export const answer: number = 2;\n');
  expect(await compiledUrl('src/main.ts', root)).toBe(url);
  expect(valueIn(url!)).toBe(2);
});

test('the build is remade from the sources as they are, not as they were: a removed source leaves no module behind', async () => {
  const root = fakePackage();
  writeFileSync(join(root, 'src/old.ts'), 'export const old = 1;\n');
  await compiledUrl('src/main.ts', root);
  expect(existsSync(join(root, 'dist/js/src/old.js'))).toBe(true);
  rmSync(join(root, 'src/old.ts'));
  await compiledUrl('src/main.ts', root);
  expect(existsSync(join(root, 'dist/js/src/old.js'))).toBe(false);
  expect(existsSync(join(root, 'dist/js/src/main.js'))).toBe(true);
});

test('a built package copied elsewhere (packed and installed) is current there, and not built again', async () => {
  const root = fakePackage();
  await compiledUrl('src/main.ts', root);
  const copy = mkdtempSync(join(tmpdir(), 'compiled-copy-'));
  cpSync(root, copy, { recursive: true });
  // Told apart from a new build: this one would be replaced.
  writeFileSync(join(copy, 'dist/js/src/answer.js'), 'export const answer = 3;\n');
  expect(valueIn((await compiledUrl('src/main.ts', copy))!)).toBe(3);
});

test("vitest's worker gets the lanes and every suite as one module, made again when a suite changes", async () => {
  const root = fakePackage();
  mkdirSync(join(root, 'src/check'));
  mkdirSync(join(root, 'suites'));
  // The real lanes file's pattern: each suite's module runs only when the lanes import it.
  writeFileSync(
    join(root, 'src/check/lanes.ts'),
    "import { answer } from '../answer.js';\nexport const load = (name: string) => import(`../../suites/${name}.suite.ts`);\nexport const value = answer;\n",
  );
  writeFileSync(join(root, 'suites/one.suite.ts'), "(globalThis as any).loaded = [...((globalThis as any).loaded ?? []), 'one'];\n");
  writeFileSync(join(root, 'suites/two.suite.ts'), "(globalThis as any).loaded = [...((globalThis as any).loaded ?? []), 'two'];\n");
  await build(root);
  const bundle = join(root, 'dist/js/lanes.bundle.js');
  const loaded = (url: string) =>
    execFileSync(
      process.execPath,
      ['--input-type=module', '-e', `await (await import('${url}')).load('two'); console.log(JSON.stringify(globalThis.loaded))`],
      {
        encoding: 'utf8',
      },
    ).trim();
  expect(readFileSync(bundle, 'utf8')).not.toMatch(/from ['"]\.\.?\//);
  expect(loaded(pathToFileURL(bundle).href)).toBe('["two"]');
  // The file vitest is given imports the bundle, which Node then loads (src/run/suites.ts).
  expect(readFileSync(join(root, 'dist/js/lanes.entry.js'), 'utf8')).toMatch(/^import '\.\/lanes\.bundle\.js';$/m);

  writeFileSync(join(root, 'suites/two.suite.ts'), "(globalThis as any).loaded = ['two, changed'];\n");
  await build(root);
  expect(loaded(pathToFileURL(bundle).href)).toBe('["two, changed"]');

  // Removed from a build of the same sources (a cleaned folder): made again, not left missing.
  rmSync(bundle);
  rmSync(join(root, 'dist/js/lanes.entry.js'));
  await build(root);
  expect(loaded(pathToFileURL(bundle).href)).toBe('["two, changed"]');
  expect(existsSync(join(root, 'dist/js/lanes.entry.js'))).toBe(true);
});

test("the CLI's entry is one module with every module of ours it loads, but the embedded reference's, which runs on a thread from its files", async () => {
  const root = fakePackage();
  mkdirSync(join(root, 'bin'));
  mkdirSync(join(root, 'reference'));
  writeFileSync(
    join(root, 'bin/cli.ts'),
    "import { value } from '../src/main.js';\nexport const reference = () => import('../reference/thread.js');\nexport const answer = value;\n",
  );
  writeFileSync(join(root, 'reference/thread.ts'), 'export const where: string = import.meta.url;\n');
  await build(root);
  const cli = join(root, 'dist/js/bin/cli.js');
  const imports = [...readFileSync(cli, 'utf8').matchAll(/(?:from |import\()['"](\.\.?\/[^'"]+)['"]/g)].map((m) => m[1]);
  expect(imports).toEqual(['../reference/thread.js']);
  const run = `const m = await import('${pathToFileURL(cli).href}'); console.log(JSON.stringify([m.answer, (await m.reference()).where]))`;
  expect(JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', run], { encoding: 'utf8' }))).toEqual([
    1,
    pathToFileURL(join(root, 'dist/js/reference/thread.js')).href,
  ]);
});

test('run through tsx, not built, a run loads its suites from their sources and judges them', async () => {
  // Read by bin/conformance.mjs as the process starts.
  const result = await runCli(['--only', 'GEN-1,KEY-8'], { CONFORMANCE_NO_COMPILE: '1' }, { process: true });
  expect(result.exitCode, result.stderr).toBe(0);
  const statuses = Object.fromEntries(readReport(result).clauses.map((clause) => [clause.id, clause.status]));
  expect([statuses['GEN-1'], statuses['KEY-8']]).toEqual(['pass', 'pass']);
}, 120_000);

// Node 22.1 and later keep compiled modules on disk; the launcher hands the run the cache's folder.
test.skipIf(!nodeModule.enableCompileCache)('the launcher hands the run, its threads included, Node’s cache of compiled modules', () => {
  const cache = mkdtempSync(join(tmpdir(), 'compile-cache-'));
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CONFORMANCE_') && !name.startsWith('VITEST')));
  execFileSync(process.execPath, [join(ROOT, 'bin/conformance.mjs'), '--help'], { env: { ...env, NODE_COMPILE_CACHE: cache }, encoding: 'utf8' });
  expect(readdirSync(cache).length).toBeGreaterThan(0);
});

test.skipIf(!nodeModule.enableCompileCache)('a run started without the launcher keeps the cache too, in the temporary folder by default', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'compile-cache-tmp-'));
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('CONFORMANCE_') && !name.startsWith('VITEST') && name !== 'NODE_COMPILE_CACHE'),
  );
  execFileSync(process.execPath, [join(ROOT, 'bin/conformance.mjs'), '--help'], {
    env: { ...env, CONFORMANCE_LAUNCHED: 'direct', TMPDIR: tmp },
    encoding: 'utf8',
  });
  expect(readdirSync(join(tmp, 'node-compile-cache')).length).toBeGreaterThan(0);
});

test('sources that do not compile leave the run to tsx', async () => {
  const root = fakePackage();
  writeFileSync(join(root, 'src/answer.ts'), 'export const answer: number = ;\n');
  expect(await compiledUrl('src/main.ts', root)).toBeNull();
});

test('a built module finds its own package, also where node_modules is a link to another clone', async () => {
  const other = fakePackage();
  mkdirSync(join(other, 'node_modules'));
  const root = fakePackage();
  symlinkSync(join(other, 'node_modules'), join(root, 'node_modules'));
  writeFileSync(join(root, 'src/package-root.ts'), readFileSync(join(ROOT, 'src/package-root.ts')));
  writeFileSync(join(root, 'src/main.ts'), "export { PACKAGE_ROOT } from './package-root.js';\n");
  const compiled = await compiledUrl('src/main.ts', root);
  expect((await import(compiled!)).PACKAGE_ROOT).toBe(join(root, '/'));
});

test("the package's build holds the schemas' validators, made from the schemas as they are", async () => {
  await build();
  const { schemasStamp, profile } = createRequire(import.meta.url)(join(ROOT, 'dist/js/validators.cjs')) as { schemasStamp: string; profile: unknown };
  expect(schemasStamp).toMatch(/^[0-9a-f]{16}$/);
  expect(typeof profile).toBe('function');
  const { schemaErrors } = await import('../src/schemas.js');
  expect(schemaErrors('profile', { name: 'x' })).toEqual([]);
  expect(schemaErrors('profile', {})).toEqual(["(root) must have required property 'name'"]);
});
