import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from './support/cli.js';

// The import rules of docs/architecture.md, as data: for each folder, the folders its files may not
// import. The suites judge a target through the harness's public parts, never through the
// reference they may be run against; the reference, mutants and variants know nothing of the suite.
// src/ never imports the folders it serves (the reporters, the reference, the composition root in
// bin/): it is handed what it needs of them (src/run/parts.ts).
const FORBIDDEN: Record<string, readonly string[]> = {
  src: ['suites', 'mutants', 'variants', 'test', 'scripts', 'bench', 'reporters', 'reference', 'bin'],
  suites: [
    'reference',
    'mutants',
    'variants',
    'test',
    'scripts',
    'bench',
    'reporters',
    'src/cli',
    'src/report',
    'src/fleet',
    'src/integrity',
    'src/init',
    'src/config',
  ],
  reference: [
    'src/broker',
    'src/check',
    'src/cli',
    'src/http',
    'src/judge',
    'src/keys',
    'src/report',
    'src/run',
    'src/secrets',
    'src/verdict',
    'suites',
    'mutants',
    'variants',
    'test',
    'reporters',
  ],
  mutants: ['suites', 'variants', 'test', 'src/broker', 'src/check', 'src/http', 'src/run', 'src/report', 'src/secrets', 'src/verdict'],
  variants: ['suites', 'test', 'src/broker', 'src/check', 'src/http', 'src/run', 'src/report', 'src/secrets', 'src/verdict'],
  reporters: ['suites', 'reference', 'mutants', 'variants', 'test', 'src/run', 'src/report', 'src/secrets', 'src/verdict'],
};

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return /\.(ts|mjs)$/.test(name) ? [path] : [];
  });
}

/**
 * The relative imports of a source file, as paths from the root (`.js` as written): static ones
 * (`import`, `export ... from`) and dynamic ones (`import('...')`), which load a module all the same.
 */
function importsOf(file: string): string[] {
  return [...readFileSync(join(ROOT, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map(([, target]) =>
    relative(ROOT, normalize(join(ROOT, dirname(file), target!))),
  );
}

test('no folder imports what docs/architecture.md forbids it', () => {
  const broken: string[] = [];
  for (const [folder, forbidden] of Object.entries(FORBIDDEN)) {
    for (const file of sources(folder)) {
      for (const resolved of importsOf(file)) {
        const hit = forbidden.find((f) => resolved === f || resolved.startsWith(`${f}/`));
        if (hit) broken.push(`${file} imports ${resolved} (${folder}/ may not import ${hit}/)`);
      }
    }
  }
  expect(broken).toEqual([]);
});

/** A file's place in the folder graph of src/: its folder (`src/run/run.ts`: run), or the file itself at the top (`src/kit.ts`). */
function folderOf(path: string): string {
  const [, first, ...rest] = path.split('/');
  return rest.length > 0 ? first! : first!.replace(/\.(ts|mjs|js)$/, '');
}

/** The folders of src/ as a graph: for each, the folders its files import, each with one import that shows it. */
function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sources('src')) {
    const from = folderOf(file);
    for (const resolved of importsOf(file)) {
      if (!resolved.startsWith('src/')) continue;
      const to = folderOf(resolved);
      if (to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, `${file} imports ${resolved}`);
    }
  }
  return graph;
}

/**
 * The cycles of a graph whose edges each carry the import that shows them: each cycle as those
 * imports, in order. Found by a depth-first walk from every node, in name order.
 */
function cyclesOf(graph: ReadonlyMap<string, ReadonlyMap<string, string>>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (state.get(next) === 'open') {
        const cycle = [...path.slice(path.indexOf(next)), next];
        cycles.push(
          cycle
            .slice(1)
            .map((to, i) => graph.get(cycle[i]!)!.get(to)!)
            .join('; '),
        );
      } else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

test('the folders of src/ import each other without a cycle: every folder sits above the ones it imports', () => {
  expect(cyclesOf(folderGraph())).toEqual([]);
});

/** The packages a source file imports at run time (type-only imports are erased). */
function packagesOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/^import (?!type )[^;]*? from '([^.'][^']*)'/gm)].map(([, name]) => name!);
}

test('suites import nothing of the harness but its public face, src/kit.ts (or its judging half)', () => {
  const reaching: string[] = [];
  for (const file of sources('suites')) {
    for (const resolved of importsOf(file)) {
      if (resolved.startsWith('src/') && resolved !== 'src/kit.js' && resolved !== 'src/kit-judging.js') reaching.push(`${file} imports ${resolved}`);
    }
  }
  expect(reaching).toEqual([]);
});

test("the kit's judging half reaches no test runner: a benchmark walks without loading vitest", () => {
  const seen = new Set<string>();
  const runners: string[] = [];
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const name of packagesOf(file)) if (name === 'vitest' || name.startsWith('vitest/')) runners.push(`${file} imports ${name}`);
    for (const target of importsOf(file)) visit(target.replace(/\.js$/, '.ts'));
  };
  visit('suites/support/walk.ts');
  expect(seen.has('src/kit-judging.ts')).toBe(true);
  expect(runners).toEqual([]);
});

test('the kit loads outside vitest: the benchmarks walk with its helpers', () => {
  const loaded = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', "await import('./suites/support/walk.ts'); console.log('loaded')"],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  expect(loaded.stderr).toBe('');
  expect(loaded.stdout.trim()).toBe('loaded');
});

/** Where an import lands: the TypeScript file behind a `.js` path, where there is one. */
const sourceOf = (target: string) =>
  target.endsWith('.js') && existsSync(join(ROOT, target.replace(/\.js$/, '.ts'))) ? target.replace(/\.js$/, '.ts') : target;

// The house's folders of code (test/ aside: its support is the tests' own). A file that imports
// another which imports it back, type imports included, ties two concepts into one that lives in
// two homes: the one it depends on is put where neither needs the other (farm-studio draws them
// as circles).
const CODE = ['src', 'scripts', 'suites', 'reporters', 'reference', 'mutants', 'variants', 'bench', 'bin'];

test('no file imports itself through others, type imports included: in src/ the stages stand in a line, and everywhere each concept has one home', () => {
  const graph = new Map<string, Map<string, string>>();
  for (const file of CODE.flatMap(sources)) {
    const targets = importsOf(file).filter((target) => CODE.some((folder) => target.startsWith(`${folder}/`)));
    graph.set(file, new Map(targets.map((target) => [sourceOf(target), `${file} imports ${target}`])));
  }
  expect(cyclesOf(graph)).toEqual([]);
});
