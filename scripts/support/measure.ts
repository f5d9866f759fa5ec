import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { exploreBudget } from '../../src/check/explore-budget.js';
import { propertyBudget } from '../../src/check/property-budget.js';
import type { ConformanceDocument } from '../../src/report/document.js';
import { ESTIMATE_PROPERTY_RUNS } from '../../src/run/estimates.js';
import { readReport, runCli } from '../../test/support/run-cli.js';
import type { BodyClass } from '../../src/clauses/dimensions.js';

// The measured run of `npm run coverage`: the CLI against the embedded reference, at the strength
// the request estimates are measured at, with the exchange tap preloaded into its process.

/**
 * Sequences the measured run explores: the default's (4 at full strength), so that a sequence's
 * requests are an average of several, not one drawn by chance.
 */
export const ESTIMATE_EXPLORE = exploreBudget(propertyBudget());

const TAP = fileURLToPath(new URL('./exchange-tap.mjs', import.meta.url));

/** One exchange of the coverage run as `scripts/support/exchange-tap.mjs` writes it. */
export interface TappedExchange {
  readonly check: string;
  readonly method: string;
  readonly path: string;
  readonly credential: string;
  /** The response's status; 0 where none came. */
  readonly status?: number;
  /** The classes of its request body, where it had a body or a Content-Type. */
  readonly bodies?: readonly BodyClass[];
}

/** A measured run: its report and the exchanges the tap wrote. */
export interface MeasuredRun {
  readonly report: ConformanceDocument;
  readonly exchanges: readonly TappedExchange[];
}

/** Runs the suite (`args`: a selection, a key count) against the embedded reference, the tap on. */
export async function measure(args: readonly string[]): Promise<MeasuredRun> {
  // The exchanges of the run, as the tap preloaded into the CLI's process writes them at exit.
  const scratch = mkdtempSync(join(tmpdir(), 'coverage-tap-'));
  const tapFile = join(scratch, 'exchanges.json');
  try {
    const tap = `--import=${pathToFileURL(TAP).href}`;
    const result = await runCli(
      ['--seed', '1', '--property-runs', String(ESTIMATE_PROPERTY_RUNS), '--explore', String(ESTIMATE_EXPLORE), ...args],
      {
        EXCHANGE_TAP_FILE: tapFile,
        NODE_OPTIONS: [process.env.NODE_OPTIONS, tap].filter(Boolean).join(' '),
      },
      // The tap is preloaded into a process of the run's own.
      { process: true },
    );
    if (result.exitCode !== 0) throw new Error(`the reference run was not conformant: ${result.stderr || result.stdout}`);
    const exchanges = JSON.parse(readFileSync(tapFile, 'utf8')) as TappedExchange[];
    if (exchanges.length === 0)
      throw new Error('the exchange tap recorded nothing: does the broker still publish what it records (RECORDED, src/broker/broker.ts)?');
    return { report: readReport(result), exchanges };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
