import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * `npm pack` / `npm publish`: builds what the package ships besides its sources and their build
 * (dist/js, which `prepare` makes): the kit's type declarations (dist/types) and build-info.json,
 * the commit the package was packed from, since an installed package has no git history to ask
 * (src/report/document.ts reads it).
 */
const ROOT = fileURLToPath(new URL('../', import.meta.url));

rmSync(`${ROOT}dist/types`, { recursive: true, force: true });
execFileSync(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '-p', `${ROOT}tsconfig.build.json`], { cwd: ROOT, stdio: 'inherit' });
let commit: string | null = null;
try {
  commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .trim();
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .trim();
  if (dirty) commit += '-dirty';
} catch {
  commit = null;
}
writeFileSync(`${ROOT}build-info.json`, `${JSON.stringify({ commit, packedAt: new Date().toISOString() }, null, 2)}\n`);
process.stdout.write(`prepack: dist/types and build-info.json (commit ${commit ?? 'unknown'})\n`);
