import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's folder (with a trailing separator): the nearest folder above this module that
 * holds a package.json. Found, not fixed by depth, because the same module also runs built, from
 * `dist/js/src/` (bin/compiled.mjs).
 */
export const PACKAGE_ROOT: string = findRoot(dirname(fileURLToPath(import.meta.url)));

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, '/');
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}
