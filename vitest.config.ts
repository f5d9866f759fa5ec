import { defineConfig } from 'vitest/config';

// The project's own tests (test/). The conformance suites (suites/) are run by the CLI, never here.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    // Concurrent tests are whole runs of the CLI that spend much of their time waiting (rate-limit
    // windows, key propagation): three at a time keep two cores busy.
    maxConcurrency: 3,
    // Test files import the reference, mutants and variants: compiled once, kept on disk.
    experimental: { fsModuleCache: true },
  },
});
