import { defineConfig } from 'vitest/config';

// The project's own tests (test/). The conformance suites (suites/) are run by the CLI, never here.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    maxConcurrency: 2,
  },
});
