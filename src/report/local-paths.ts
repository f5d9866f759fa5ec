import { homedir, tmpdir } from 'node:os';
import { basename } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.js';

/**
 * Folders of the machine that ran the suite: a report names files by their name only (issue 26),
 * never where they sit on the vendor's machine (a user name, a CI runner's layout).
 */
export function localRoots(): string[] {
  const roots = [process.cwd(), tmpdir(), homedir(), PACKAGE_ROOT].map((root) => root.replace(/\/+$/, ''));
  return [...new Set(roots.filter((root) => root.length > 1))].sort((a, b) => b.length - a.length);
}

/** Characters that end a path inside text: quotes, spaces, brackets and separators of prose. */
const PATH_END = `\\s"'\`<>|,;()`;

/** Each absolute path under a local root replaced by its file name; everything else untouched. */
export function withoutLocalPaths<T>(value: T, roots: readonly string[] = localRoots()): T {
  if (roots.length === 0) return value;
  const pattern = new RegExp(`(?:${roots.map(escape).join('|')})(?=$|[/${PATH_END}])(?:/[^${PATH_END}]*)?`, 'g');
  const scrub = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replace(pattern, (path) => basename(path.replace(/\/+$/, '')) || '.');
    if (Array.isArray(v)) return v.map(scrub);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scrub(x)]));
    return v;
  };
  return scrub(value) as T;
}

/** Flags whose value is a local file or folder: the command line keeps its name only. */
const PATH_FLAGS = new Set(['--profile', '--report-dir', '--sign-key', '--baseline']);

export function pathFlagsToNames(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    if (PATH_FLAGS.has(arg) && i + 1 < argv.length) out.push(arg, basename(argv[++i]!));
    else if (eq > 0 && PATH_FLAGS.has(arg.slice(0, eq))) out.push(`${arg.slice(0, eq)}=${basename(arg.slice(eq + 1))}`);
    else out.push(arg);
  }
  return out;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
