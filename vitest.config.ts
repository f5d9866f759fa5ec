import { defineConfig } from 'vitest/config';

// The project's own tests (test/). The conformance suites (suites/) are run by the CLI, never here.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 60_000,
    // Three files at a time on two cores: the whole runs that wait (the heartbeat's and the countdown's
    // windows, signals, a target that dies) would hold one of two workers idle for most of a minute
    // each. Measured on two cores, Node 24: 378 s with two, 333 s with three (npm run stress).
    maxWorkers: 3,
    // Concurrent tests are whole runs of the CLI that spend much of their time waiting (rate-limit
    // windows, key propagation): three at a time keep two cores busy.
    maxConcurrency: 3,
    // Test files import the reference, mutants and variants: compiled once, kept on disk.
    experimental: { fsModuleCache: true },
  },
});
