import { accessSync, constants, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Reporter, Vitest } from 'vitest/node';
import { vitestOutput } from './vitest-output.js';
import type { RunContext } from '../check/run-context.js';
import type { Output } from '../output.js';
import type { RunParts } from './parts.js';
import { PACKAGE_ROOT } from '../package-root.js';

const ROOT = PACKAGE_ROOT;
/** The one test file vitest runs: it loads the selected suites (src/check/suite-order.ts). */
const LANES = 'src/check/lanes.ts';

/**
 * Runs the suites (`suites/*.suite.ts`, those the selection needs) through vitest's node API, in
 * one worker thread, in their phases and lanes (src/check/lanes.ts, the one file vitest is given),
 * with the run's context provided to every check. `onStart` receives the running
 * vitest as soon as there is one, so that Ctrl-C can stop it.
 */
export async function runSuites(options: {
  readonly context: RunContext;
  readonly collector: Reporter;
  /** The printing reporters (`RunParts`). */
  readonly reporters: Pick<RunParts, 'progress' | 'githubAnnotations'>;
  readonly io: Output;
  readonly onStart: (vitest: Vitest) => void;
}): Promise<void> {
  const { io } = options;
  // vitest's node API, some 300 ms of loading, is loaded only once a run gets this far: a dry run,
  // or a run stopped by its settings or its preflight, never needs it.
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
        { onInit: options.onStart },
      ],
      provide: { conformance: options.context },
      fileParallelism: false,
      // One worker for all suites: the module graph (ajv, fast-check, faker) loads once, not per file.
      isolate: false,
      pool: 'threads',
      passWithNoTests: true,
      // The suites and the kit, compiled once and kept on disk: a run does not compile them again.
      experimental: { fsModuleCache: true, fsModuleCachePath: join(cache, 'modules') },
    },
    { logLevel: 'error', cacheDir: cache },
    { stdout: vitestOutput(io.out), stderr: vitestOutput(io.err) },
  );
  await vitest.close();
}

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
