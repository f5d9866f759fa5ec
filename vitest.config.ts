import { defineConfig } from 'vitest/config';
import CostOrder from './test/support/sequencer.js';

// The project's own tests (test/). The conformance suites (suites/) are run by the CLI, never here.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 60_000,
    // A thread a file, not a process: no test changes its folder or handles a signal of its own
    // (a run that does is a process of its own: test/support/run-host.ts), and a thread starts
    // without Node's start. Measured on two cores, Node 24, minutes apart: 622 and 686 CPU-seconds
    // with threads, 705 and 730 with processes.
    pool: 'threads',
    // A thread's files share its modules, loaded once, instead of each loading them anew: 614
    // CPU-seconds against 680, 324 s against 359 on two cores (isolated, vitest summed 52 s of
    // imports; shared, 13). No test replaces a module or stubs a global (test/shared-modules.test.ts),
    // and the module state a test changes (the clock, the connection pool) it puts back.
    isolate: false,
    // Four files at a time on two cores: the three matrices (most of the CPU) and beside them one
    // of the files that mostly wait in real time, in the order test/support/sequencer.ts gives, so
    // that the waiting overlaps the matrices instead of making a tail of its own. Measured: 312 s
    // with four, 342 to 368 s with three in vitest's own order; five overloaded the cores.
    maxWorkers: 4,
    sequence: { sequencer: CostOrder },
    // Concurrent tests are whole runs of the CLI that spend much of their time waiting (rate-limit
    // windows, key propagation): three at a time keep two cores busy.
    maxConcurrency: 3,
    // Test files import the reference, mutants and variants: compiled once, kept on disk.
    experimental: { fsModuleCache: true },
  },
});
