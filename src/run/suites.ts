import { createHash } from 'node:crypto';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Reporter, Vitest } from 'vitest/node';
import { vitestOutput } from './vitest-output.js';
import type { RunContext, SuitesStart } from '../check/run-context.js';
import { serveContext } from '../check/context-channel.js';
import type { Output } from '../output.js';
import type { RunParts } from './parts.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { SUITE_ORDER } from '../check/suite-order.js';

const ROOT = PACKAGE_ROOT;
/** vitest's maxConcurrency for the run's checks (see below). */
const CHECKS_AT_ONCE = 20;
/**
 * The one test file vitest runs: the lanes (src/check/lanes.ts), which load the selected suites.
 * Where this process runs built (bin/compiled.mjs), the same build bundled the lanes with every
 * module they load into one file, which a stub imports and vitest leaves to Node (`external`):
 * Node compiles it from its compile cache, where vite's module runner decoded its source map and
 * compiled it anew in every run. Run through tsx (sources that cannot be built), the sources themselves.
 */
const BUILT = import.meta.url.includes('/dist/js/');
const LANES = BUILT ? 'dist/js/lanes.entry.js' : 'src/check/lanes.ts';
const LANES_BUNDLE = /\/dist\/js\/lanes\.bundle\.js$/;

/** The suites started: running once the run hands them its context, or closed unused. */
export interface StartedSuites {
  /** Hands the workers the run's context: the checks start. */
  begin(context: RunContext): void;
  /** Settles when the checks are done (or vitest could not start: rejected). */
  readonly done: Promise<void>;
  /** Closes vitest whatever it is doing: a run that stops before its checks, or after them. */
  close(): Promise<void>;
}

/**
 * Starts the suites (`suites/*.suite.ts`, those the selection needs) through vitest's node API, in
 * one worker thread, in their phases and lanes (src/check/lanes.ts, the one file vitest is given).
 * It starts as soon as the run's broker serves, while the preflight and the key pool are under way:
 * the worker loads the suites meanwhile, and its checks wait for the run's context (`begin`).
 * `onStart` receives the running vitest as soon as there is one, so that Ctrl-C can stop it.
 */
export function startSuites(options: {
  readonly selection: RunContext['selection'];
  readonly collector: Reporter;
  /** The printing reporters (`RunParts`). */
  readonly reporters: Pick<RunParts, 'progress' | 'githubAnnotations'>;
  readonly io: Output;
  readonly onStart: (vitest: Vitest) => void;
}): StartedSuites {
  const context = serveContext<RunContext>();
  let vitest: Vitest | null = null;
  let closing = false;
  let over = false;
  let runEnded = () => {};
  const ended = new Promise<void>((resolve) => (runEnded = resolve)).then(() => {
    over = true;
  });
  const whole = (async () => {
    const started = await runVitest(
      { ...options, start: { selection: options.selection, context: context.address } },
      (v) => {
        vitest = v;
        options.onStart(v);
        // Closed while it was still starting: its checks would wait for a context that never comes.
        if (closing) void v.close();
      },
      runEnded,
    );
    // Done: closed here, and by `close` at most once more (a no-op then).
    if (!closing) {
      closing = true;
      context.close();
      await started.close();
    }
  })();
  // The checks are done once vitest has reported the run's end to every reporter, the records'
  // collector among them: vitest then closes its pool and its server (some 30 ms), which the
  // teardown and the reports need not wait for; `close` does. A vitest that never got that far
  // (it could not start) settles `done` with its error.
  const done = Promise.race([ended, whole]);
  // Awaited by `done`'s reader and by `close`; a run that stops first closes it and never reads it.
  whole.catch(() => undefined);
  done.catch(() => undefined);
  return {
    begin: (given) => context.provide(given),
    done,
    close: async () => {
      // A run that ended has nothing to cancel: vitest is closing itself.
      if (closing || over) {
        await whole.catch(() => undefined);
        return;
      }
      closing = true;
      // Checks still waiting for the run's context (a run stopped before them) end at once.
      context.refuse('the run stopped before its checks');
      await (vitest as Vitest | null)?.cancelCurrentRun('keyboard-input');
      await (vitest as Vitest | null)?.close();
      context.close();
    },
  };
}

async function runVitest(
  options: {
    readonly start: SuitesStart;
    readonly collector: Reporter;
    readonly reporters: Pick<RunParts, 'progress' | 'githubAnnotations'>;
    readonly io: Output;
  },
  onStart: (vitest: Vitest) => void,
  /** Called once vitest has reported the run's end to every other reporter. */
  onRunEnd: () => void,
): Promise<Vitest> {
  const { io } = options;
  // vitest's node API, some 300 ms of loading, is loaded only once a run gets this far: a dry run,
  // or a run stopped by its settings, never needs it.
  const { startVitest } = await import('vitest/node');
  const cache = cacheDir();
  const vitest = await startVitest(
    'test',
    [],
    {
      root: ROOT,
      config: false,
      watch: false,
      // The suites, loaded by this file into their lanes: one file, so that its lanes can run together.
      include: [LANES],
      reporters: [
        options.collector,
        options.reporters.progress(io.out),
        // junit.xml is written with the other reports, from the clause results (src/report/junit.ts).
        ...(process.env.GITHUB_ACTIONS === 'true' ? [options.reporters.githubAnnotations(io.out)] : []),
        { onInit: onStart },
        // Last: vitest calls each reporter's onTestRunEnd in their order, and the collector's is
        // synchronous: its records are whole by then.
        { onTestRunEnd: onRunEnd },
      ],
      provide: { conformance: options.start },
      fileParallelism: false,
      // Checks at once, across lanes. A check that waits (a revoked key's second, a last-use time, a
      // window) holds its place while it sleeps: at vitest's 5, the keys lane's three waits left the
      // account lane two, and its generated properties (sequential chains of a hundred requests)
      // ran one after another. At 20 the account lane of a local run ends some 0.2 s sooner; the
      // pacer, not this number, keeps the requests within every budget.
      maxConcurrency: CHECKS_AT_ONCE,
      // One worker for all suites: the module graph (ajv, fast-check, faker) loads once, not per file.
      isolate: false,
      pool: 'threads',
      passWithNoTests: true,
      ...(BUILT ? { server: { deps: { external: [LANES_BUNDLE] } } } : {}),
      // The suites and the kit, compiled once and kept on disk: a run does not compile them again.
      // Kept apart by the registry of suite files: a module's entry is found by its own content, and
      // the lanes file's, whose import pattern vite expands to the suite files it finds, is the same
      // after a suite file is added, which its cached form would not load.
      experimental: { fsModuleCache: true, fsModuleCachePath: join(cache, 'modules', SUITES_STAMP) },
    },
    { logLevel: 'error', cacheDir: cache },
    { stdout: vitestOutput(io.out), stderr: vitestOutput(io.err) },
  );
  return vitest;
}

/** The registry of suite files, in a few characters: a cache of compiled modules made before a suite was added is not read. */
const SUITES_STAMP = createHash('sha256').update(SUITE_ORDER.join('\n')).digest('hex').slice(0, 12);

/**
 * Vitest's cache (test durations): beside the package, or in the temporary folder when the
 * package is installed where it cannot write (a global or read-only install).
 */
function cacheDir(): string {
  const beside = join(ROOT, 'node_modules/.vite-conformance');
  try {
    mkdirSync(beside, { recursive: true });
    accessSync(beside, constants.W_OK);
    return beside;
  } catch {
    return join(tmpdir(), 'vite-conformance');
  }
}
