import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE_VERSION } from '../clauses/catalogue.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { sha256 } from './digest.js';

const ROOT = PACKAGE_ROOT;

/** Which suite made a report: what `conformance.json` and `manifest.json` say of it. */
export interface SuiteIdentity {
  version: string;
  commit: string | null;
  catalogueVersion: string;
  /** `sha256:<hex>` over the package's shipped files (`suiteDigest`). */
  digest?: string;
  /** Shipped files that differ from `commit`, when the suite runs from a clone's working tree. */
  dirty?: string[];
}

/**
 * Files `npm pack` writes itself (prepack): derived from the sources, and absent from a clone, so
 * left out of the digest; a clone at the published commit then has the published package's digest.
 */
const DERIVED = ['build-info.json', 'dist/'];

/** Names npm never packs, wherever they are (npm-packlist's defaults). */
const NEVER_PACKED = new Set(['.git', 'node_modules', '.DS_Store', '.npmrc', 'package-lock.json']);

let cached: SuiteIdentity | null = null;

/** The suite's identity, computed once a process (the digest reads every shipped file). */
export function suiteIdentity(): SuiteIdentity {
  if (cached) return { ...cached, ...(cached.dirty ? { dirty: [...cached.dirty] } : {}) };
  // One `git status` a process: it names both the commit and the files that differ from it.
  const clone = isClone() ? cloneState() : null;
  const commit = clone?.commit ?? builtCommit();
  const dirty = clone?.dirty ?? [];
  cached = { version: suiteVersion(), commit, catalogueVersion: CATALOGUE_VERSION, digest: suiteDigest(), ...(dirty.length > 0 ? { dirty } : {}) };
  return suiteIdentity();
}

/** The `files` of package.json, less what npm pack derives. */
function shippedEntries(): string[] {
  const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { files?: string[] };
  return (pkg.files ?? []).filter((entry) => !DERIVED.some((derived) => entry === derived || entry.startsWith(derived)));
}

/** Every shipped file, by its path from the package folder with `/` separators, sorted. */
export function shippedFiles(): string[] {
  const out: string[] = [];
  const walk = (path: string) => {
    const full = join(ROOT, path);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full)) if (!NEVER_PACKED.has(name)) walk(`${path.replace(/\/$/, '')}/${name}`);
    } else out.push(path);
  };
  for (const entry of shippedEntries()) walk(entry.replace(/\/$/, ''));
  return out.sort();
}

/**
 * `sha256:` and the SHA-256 over the shipped files, each as its path, a NUL, the SHA-256 of its
 * content and a newline, in sorted order: a changed, added or removed file changes it.
 * `conformance --suite-digest` prints it for the installed package.
 */
export function suiteDigest(): string {
  const lines = shippedFiles().map((path) => `${path}\0${sha256(readFileSync(join(ROOT, path)))}\n`);
  return `sha256:${sha256(lines.join(''))}`;
}

function suiteVersion(): string {
  return (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { version: string }).version;
}

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .trimEnd();
}

/**
 * Whether the package folder is itself the top of a clone (a `.git` folder, or a worktree's
 * `.git` file), not an installed package inside someone else's repository: no git process is
 * started to ask, as a run starts with it.
 */
function isClone(): boolean {
  return existsSync(join(ROOT, '.git'));
}

/**
 * The clone's commit (null before its first), and the shipped files its working tree changed,
 * added or removed against it; null where git cannot tell (not installed, not a repository).
 */
function cloneState(): { commit: string | null; dirty: string[] } | null {
  let status: string;
  try {
    status = git('status', '--porcelain=v2', '--branch', '--untracked-files=all', '--', ...shippedEntries());
  } catch {
    return null;
  }
  let commit: string | null = null;
  const dirty: string[] = [];
  for (const line of status.split('\n')) {
    const oid = /^# branch\.oid ([0-9a-f]{40})$/.exec(line);
    if (oid) commit = oid[1]!;
    else if (line.startsWith('#') || line.length === 0) continue;
    else dirty.push(changedPath(line));
  }
  return { commit, dirty: dirty.sort() };
}

/**
 * The path a porcelain v2 entry names: the last field of a change (`1 ... <path>`), of an
 * unmerged file (`u ... <path>`) and of an untracked one (`? <path>`), and a rename's new path
 * (`2 ... <path><TAB><old path>`).
 */
function changedPath(line: string): string {
  const fields = { '1': 8, '2': 9, u: 10, '?': 1 }[line[0]!] ?? 1;
  return line.split(' ').slice(fields).join(' ').split('\t')[0]!;
}

/** The commit a packed copy was made from: build-info.json, which prepack writes into it. */
function builtCommit(): string | null {
  try {
    return (JSON.parse(readFileSync(`${ROOT}build-info.json`, 'utf8')) as { commit: string | null }).commit;
  } catch {
    return null;
  }
}
