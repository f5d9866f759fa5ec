import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's folder (with a trailing separator): the nearest folder above this module that
 * holds a package.json. Found, not fixed by depth, because the same module also runs compiled
 * ahead of time from `node_modules/.cache/` (bin/compiled.mjs), whose top folder names the package
 * in a file `package-root`.
 */
export const PACKAGE_ROOT: string = findRoot(dirname(fileURLToPath(import.meta.url)));

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package-root'))) return join(readFileSync(join(dir, 'package-root'), 'utf8'), '/');
    if (existsSync(join(dir, 'package.json'))) return join(dir, '/');
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}
