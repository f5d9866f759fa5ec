import { expect, test } from 'vitest';
import { startReference } from '../reference/server.js';
import { variantNamed } from '../variants/index.js';
import { runAgainst } from './hostile/run.js';
import { readReport } from './support/cli.js';
import { describe429s } from './support/rate-evidence.js';
import { onSimulatedClock, SIMULATED_RUN_ENV } from './support/simulated.js';

// X-RateLimit-Reset names a whole second, rounded either way (variants/rate-reset-rounded-down.ts).
// A run of one key waits for its window again and again: read as the window's end, a Reset rounded
// down sent the first request of each new window up to a second early, and the next one met a 429
// (10 in a --read-only run). The pacer waits for the second after where an answer shows the window
// still counting (src/pacing/pacer.ts); the tolerance matrix runs the variant with a key pool.

test('a one-key run against a server whose Reset is rounded down meets no 429', async () => {
  const seen: number[] = [];
  const variant = variantNamed('rate-reset-rounded-down');
  const target = await startReference(
    onSimulatedClock({
      modify: (reference) => {
        variant.modify!(reference);
        reference.app.addHook('onResponse', async (_req, reply) => void seen.push(reply.statusCode));
      },
    }),
  );
  try {
    // --read-only: no key is created, and no check means to meet a 429.
    const result = await runAgainst(target, ['--read-only'], SIMULATED_RUN_ENV);
    expect(result.exitCode, result.stderr).toBe(0);
    // Enough requests that the run waited for several windows.
    expect(seen.length).toBeGreaterThan(300);
    expect(seen.filter((status) => status === 429).length, describe429s(result.reportDir)).toBe(0);
    expect(readReport(result).environment.unplanned429).toBe(0);
  } finally {
    await target.close();
  }
});
