// The sources are TypeScript. Run through tsx, every module the CLI loads, its dependencies
// included, passes tsx's loader thread: some three seconds of CPU a run, a fifth of a run against
// a local server. So the main process runs them compiled to plain JavaScript in `dist/js/` (esbuild,
// a tenth of a second), the CLI's modules and vitest worker's each bundled into one, with the
// schemas' validators compiled ahead of time beside them. One build, made by `npm ci` and `npm
// pack` (the `prepare` script runs this file) and made again by the entry points whenever the
// sources differ from those it was made from, so that an edit needs no build step. Where it cannot
// be made (a read-only install of changed sources), the sources run through tsx.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** What the main process runs, module by module (bin/'s TypeScript: the composition root). */
const FOLDERS = ['bin', 'src', 'reporters', 'reference'];
/**
 * What vitest's worker runs: the lanes file, with every suite and every module of ours they load,
 * bundled into one module (the packages left to Node). vite's module runner fetches a worker's
 * modules from the main thread one at a time, as each import is reached: some 150 round trips and
 * 150 ms before the first check of a local run, where one file is one. Made where the package has
 * the entry; the suites are among the sources the stamp covers.
 */
const WORKER = { entry: 'src/check/lanes.ts', file: 'lanes.bundle.js', folders: ['suites'], stub: 'lanes.entry.js' };
/**
 * The file vitest is given: it imports the bundle, which vitest leaves to Node (src/run/suites.ts),
 * so that Node compiles it from its compile cache, where vite's module runner compiled all of it
 * anew in every run (a source map decoded, a script of 430 KB compiled: one small run's worker took
 * 382 ms of CPU with the stub, 512 without).
 */
const STUB = `// Built by bin/compiled.mjs: the file vitest runs; the bundle beside it is loaded by Node.\nimport './${WORKER.file}';\n`;
/**
 * The CLI's entry, bundled with every module of ours it loads into one module (the packages left
 * to Node, and the modules `APART` names): some 150 modules resolved and linked one by one cost a
 * run as much as its checks of a small selection.
 */
const MAIN = { entry: 'bin/cli.ts', file: 'bin/cli.js' };
/** Folders whose modules stay modules of their own: the embedded reference runs on a thread of its own, from its files. */
const APART = ['reference'];
/** Where the build goes, under the package. */
const OUT = join('dist', 'js');
/** The build's last file: the stamp of the sources it was made from. */
const STAMP = 'stamp';
/**
 * The built module that makes the schemas' validators (Ajv's standalone code), and the file they go
 * to: src/schemas.ts loads it, and compiles the schemas itself where it is missing or stale. A
 * package with schemas/ and no such module fails to build, rather than run without its validators.
 */
const VALIDATORS = { module: 'src/schemas.js', make: 'standaloneValidators', file: 'validators.cjs' };

/**
 * Imports `entry` (a path under the package, `src/cli/main.ts`) built, building it first where the
 * sources changed, through tsx where it cannot be built.
 */
export async function importSource(entry) {
  const compiled = await compiledUrl(entry);
  if (compiled) return import(compiled);
  const { register } = await import('tsx/esm/api');
  register();
  return import(pathToFileURL(join(ROOT, entry)).href);
}

/**
 * The URL of `entry` built, building the package's sources first where they changed; null where
 * they cannot be built. CONFORMANCE_NO_COMPILE=1 asks for tsx.
 */
export async function compiledUrl(entry, root = ROOT) {
  if (process.env.CONFORMANCE_NO_COMPILE) return null;
  try {
    await build(root);
    return pathToFileURL(join(root, OUT, entry.replace(/\.ts$/, '.js'))).href;
  } catch {
    return null;
  }
}

/** Builds `dist/js/` unless it was built from the sources as they are; throws where it cannot. */
export async function build(root = ROOT) {
  const out = join(root, OUT);
  const sourcesOf = (folders) => folders.filter((folder) => existsSync(join(root, folder))).flatMap((folder) => sources(join(root, folder)));
  const files = sourcesOf(FOLDERS);
  const worker = existsSync(join(root, WORKER.entry));
  const stamp = stampOf(worker ? [...files, ...sourcesOf(WORKER.folders)] : files, root);
  // A bundle removed since (a cleaned folder, a partial copy) is made again: without it vitest
  // would find no suite to run.
  if (readOr(join(out, STAMP)) === stamp && (!worker || [WORKER.file, WORKER.stub].every((file) => existsSync(join(out, file))))) return;
  const { build: esbuild } = await import('esbuild');
  const options = { format: 'esm', platform: 'node', target: 'node20', logLevel: 'silent', write: false };
  /** One module of `entry` and every module of ours it loads (the packages left to Node), or none where the package lacks the entry. */
  const bundle = (entry, file, plugins = []) =>
    existsSync(join(root, entry))
      ? esbuild({ ...options, entryPoints: [join(root, entry)], outfile: join(out, file), bundle: true, packages: 'external', plugins })
      : { outputFiles: [] };
  // The CLI's entry is its bundle's alone: built module by module too, it would be written twice.
  const result = await esbuild({ ...options, entryPoints: files.filter((file) => file !== join(root, MAIN.entry)), outdir: out, outbase: root });
  const bundled = await bundle(WORKER.entry, WORKER.file);
  const mainBundle = await bundle(MAIN.entry, MAIN.file, [keepApart(root)]);
  const written = new Set([STAMP, VALIDATORS.file]);
  for (const { path, contents } of [...result.outputFiles, ...bundled.outputFiles, ...mainBundle.outputFiles]) {
    written.add(relative(out, path));
    writeIfChanged(path, contents);
  }
  if (worker) {
    writeIfChanged(join(out, WORKER.stub), STUB);
    written.add(WORKER.stub);
  }
  removeOthers(out, written);
  if (existsSync(join(root, 'schemas'))) {
    const { [VALIDATORS.make]: make } = await import(pathToFileURL(join(out, VALIDATORS.module)).href);
    writeIfChanged(join(out, VALIDATORS.file), make());
  }
  writeIfChanged(join(out, STAMP), stamp);
}

/** An esbuild plugin: an import of a module under one of `APART`'s folders stays an import of its built file. */
function keepApart(root) {
  return {
    name: 'keep-apart',
    setup(build) {
      build.onResolve({ filter: /^\./ }, (args) => {
        const target = join(args.resolveDir, args.path);
        const inside = relative(root, target).split(/[\\/]/)[0];
        if (!APART.includes(inside)) return undefined;
        const from = relative(join(root, OUT, dirname(MAIN.file)), join(root, OUT, relative(root, target)));
        return { path: from.startsWith('.') ? from : `./${from}`, external: true };
      });
    },
  };
}

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * Names a build by what it was made from: the sources' paths and contents, the schemas', and this
 * file's own (a build made another way is made again). By content, not modification time, so that
 * the build `npm pack` ships is current where it is installed.
 */
function stampOf(files, root) {
  const schemas = join(root, 'schemas');
  const inputs = [...files, ...(existsSync(schemas) ? readdirSync(schemas).map((name) => join(schemas, name)) : [])];
  const hash = createHash('sha256').update(readFileSync(fileURLToPath(import.meta.url)));
  for (const file of inputs.sort())
    hash
      .update(`${relative(root, file)}\0`)
      .update(readFileSync(file))
      .update('\n');
  return hash.digest('hex');
}

function readOr(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Unchanged files are left alone, and a changed one is replaced whole (renamed into place): a run
 * that started earlier, or builds at the same time, never reads half a file.
 */
function writeIfChanged(file, contents) {
  const bytes = typeof contents === 'string' ? Buffer.from(contents) : contents;
  try {
    if (readFileSync(file).equals(bytes)) return;
  } catch {
    // Not there yet.
  }
  mkdirSync(dirname(file), { recursive: true });
  const scratch = `${file}.${process.pid}.tmp`;
  writeFileSync(scratch, bytes);
  renameSync(scratch, file);
}

/** The outputs of sources since removed or moved. */
function removeOthers(out, keep) {
  for (const name of readdirSync(out, { recursive: true })) {
    const path = join(out, name);
    if (!keep.has(name) && !name.endsWith('.tmp') && !isDirectory(path)) rmSync(path, { force: true });
  }
}

function isDirectory(path) {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await build();
