// The sources are TypeScript. Run through tsx, every module the CLI loads, its dependencies
// included, passes tsx's loader thread: some three seconds of CPU a run, a fifth of a run against
// a local server. So the entry points load the sources compiled ahead of time to plain JavaScript
// instead, compiled here when the sources have changed since the last compilation (esbuild, a
// tenth of a second), and fall back to tsx where that cannot be done (a read-only install).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** What the main process runs (bin/'s TypeScript: the composition root); the suites run in vitest's worker, which compiles them itself. */
const FOLDERS = ['bin', 'src', 'reporters', 'reference'];
/** Compilations unused for this long are removed (a run that started earlier may still be using a recent one). */
const STALE_MS = 60 * 60 * 1000;

/**
 * Imports `entry` (a path under the package, `src/cli/main.ts`), compiled when it can be, through
 * tsx when not.
 */
export async function importSource(entry) {
  const compiled = await compiledUrl(entry);
  if (compiled) return import(compiled);
  const { register } = await import('tsx/esm/api');
  register();
  return import(pathToFileURL(join(ROOT, entry)).href);
}

/**
 * The URL of `entry` compiled, compiling the package's sources first where they changed; null
 * where they cannot be compiled. CONFORMANCE_NO_COMPILE=1 asks for tsx.
 */
export async function compiledUrl(entry, root = ROOT) {
  if (process.env.CONFORMANCE_NO_COMPILE) return null;
  try {
    // Inside node_modules: a reinstall clears it, and module resolution from it finds the package's dependencies.
    const cache = join(root, 'node_modules', '.cache', 'conformance-compiled');
    const files = FOLDERS.filter((folder) => existsSync(join(root, folder))).flatMap((folder) => sources(join(root, folder)));
    const dir = join(cache, stamp(files, root));
    if (existsSync(join(dir, '.complete'))) touch(dir);
    else await compile(files, root, dir);
    return pathToFileURL(join(dir, entry.replace(/\.ts$/, '.js'))).href;
  } catch {
    return null;
  }
}

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Names a compilation by the sources it was made from: their paths, sizes and modification times. */
function stamp(files, root) {
  const hash = createHash('sha256').update(`${root}\n`);
  for (const file of files.sort()) {
    const { size, mtimeMs } = statSync(file);
    hash.update(`${relative(root, file)}\0${size}\0${mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Compiles into a folder of its own, then renames it into place: runs that start together (the
 * project's tests start several) each see a whole compilation or none.
 */
async function compile(files, root, dir) {
  const { build } = await import('esbuild');
  const scratch = `${dir}.${process.pid}.tmp`;
  rmSync(scratch, { recursive: true, force: true });
  await build({ entryPoints: files, outdir: scratch, outbase: root, format: 'esm', platform: 'node', target: 'node20', logLevel: 'silent' });
  // The compiled modules find the package by this file, not by the folders above them: node_modules
  // may be a link to another clone's (a git worktree).
  writeFileSync(join(scratch, 'package-root'), root);
  writeFileSync(join(scratch, '.complete'), '');
  try {
    renameSync(scratch, dir);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    if (!existsSync(join(dir, '.complete'))) throw error;
  }
  removeStale(dir);
}

function touch(dir) {
  try {
    const now = new Date();
    utimesSync(dir, now, now);
  } catch {
    // Read-only: it is not removed by this process anyway.
  }
}

function removeStale(current) {
  const cache = dirname(current);
  for (const name of readdirSync(cache)) {
    const path = join(cache, name);
    if (path === current) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by another run meanwhile.
    }
  }
}
