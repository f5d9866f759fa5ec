import { expect } from 'vitest';
import { startReference, type ReferenceOptions } from '../../reference/server.js';
import { runAgainst } from '../hostile/run.js';
import { readReport } from './cli.js';
import { describe429s } from './rate-evidence.js';
import { onSimulatedClock, SIMULATED_RUN_ENV } from './simulated.js';

/**
 * A `--read-only` run against the reference started with `options`, on the simulated clock: one
 * key, no key created and no check that means to meet a 429, waiting for its window again and
 * again. Expects it to end soundly, long enough to have waited for several windows, and to have
 * met no 429: every window the reference's headers named was read right.
 */
export async function expectOneKeyRunWithout429(options: ReferenceOptions): Promise<void> {
  const seen: number[] = [];
  const target = await startReference(
    onSimulatedClock({
      ...options,
      modify: (reference) => {
        options.modify?.(reference);
        reference.app.addHook('onResponse', async (_req, reply) => void seen.push(reply.statusCode));
      },
    }),
  );
  try {
    const result = await runAgainst(target, ['--read-only'], SIMULATED_RUN_ENV);
    expect(result.exitCode, result.stderr).toBe(0);
    // Enough requests that the run waited for several windows of its one key.
    expect(seen.length).toBeGreaterThan(300);
    expect(seen.filter((status) => status === 429).length, describe429s(result.reportDir)).toBe(0);
    expect(readReport(result).environment.unplanned429).toBe(0);
  } finally {
    await target.close();
  }
}
