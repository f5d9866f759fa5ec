import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FAMILIES, isClauseId } from '../../src/clauses/catalogue.js';
import { SUITE_FAMILIES, suiteName, type SuiteName } from '../../src/check/suite-order.js';

// What `npm run coverage` measures: the whole suite, the families and clauses named with
// `--only`, or (`--changed`) the families of the suite files the working tree changed.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A wrong argument: said in one line, exit status 2. */
export class SelectionError extends Error {
  override readonly name = 'SelectionError';
}

/** The selection of `npm run coverage`'s arguments: [] for the whole suite. */
export function selectionOf(args: readonly string[], changed: () => readonly string[] = changedSuiteFiles): string[] {
  if (args.length === 0) return [];
  if (args.length === 1 && args[0] === '--changed') return familiesOf(changed());
  if (args.length === 2 && args[0] === '--only') {
    const named = args[1]!.split(',').filter(Boolean);
    const unknown = named.filter((n) => !isClauseId(n) && !(FAMILIES as readonly string[]).includes(n));
    if (named.length === 0 || unknown.length > 0)
      throw new SelectionError(`--only takes families and clause IDs (GEN,RATE-7); not ${unknown.join(', ') || 'empty'}`);
    return named;
  }
  throw new SelectionError(`usage: npm run coverage [-- --only FAMILY|CLAUSE,... | -- --changed]; got ${args.join(' ')}`);
}

/**
 * The families of the changed files: a suite file's own (SUITE_FAMILIES); any other file under
 * suites/ (a catalogue, a support module) may change any check: the whole suite ([]).
 */
export function familiesOf(files: readonly string[]): string[] {
  const families = new Set<string>();
  for (const file of files) {
    const name = suiteName(file);
    const own = file.endsWith('.suite.ts') ? SUITE_FAMILIES[name as SuiteName] : undefined;
    if (own === undefined) return [];
    own.forEach((f) => families.add(f));
  }
  return [...families];
}

/** Files under suites/ that the working tree changed, added or holds untracked (git). */
function changedSuiteFiles(): string[] {
  const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all', '--', 'suites'], { cwd: ROOT, encoding: 'utf8' });
  return status
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(3).replace(/^.* -> /, ''));
}
