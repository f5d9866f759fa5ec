import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NOT_REACHED, NOT_REACHED_FILE } from '../src/clauses/dimensions.js';
import { ESTIMATES_FILE, loadEstimates } from '../src/run/estimates.js';
import type { CheckSpans, StaleReason } from './support/coverage-page.js';
import { moved, shape } from './support/estimate-drift.js';
import { measure } from './support/measure.js';
import { SelectionError, selectionOf } from './support/selection.js';

// `npm run coverage`: measures the suite against the embedded reference and writes what the run
// showed. The run starts first; what renders the files loads while it goes.

export const COVERAGE_FILE = fileURLToPath(new URL('../docs/coverage.md', import.meta.url));
export const SPANS_FILE = fileURLToPath(new URL('../fixtures/check-spans.json', import.meta.url));

/** The generated files, as rendered, and the reasons the run made stale. */
export interface Generated {
  readonly coverage: string;
  readonly estimates: string;
  readonly spans: string;
  readonly notReached: string;
  readonly stale: readonly StaleReason[];
  /**
   * Of a partial run, the checks it re-measured whose cost moved beyond the jitter of one-second
   * windows, each with how: a check that was changed, or one whose cost depends on what other
   * families wrote (PAG-6 walks the submissions SUB made), which is the whole run's to measure.
   */
  readonly moved: readonly string[];
}

/**
 * Runs the suite against the embedded reference and renders the generated files: the coverage
 * page, the request estimates and what each check visited, and the reasons for values no check
 * visits, less those a check now visits (`stale`: dropped, so that a new check needs no edit
 * elsewhere). With `only` (families and clause IDs, as `--only` takes them), the run measures those
 * clauses' checks alone, and their entries replace the stored ones: a check added to a family
 * costs that family's run, not the whole suite's.
 */
export async function generateCoverage(only: readonly string[] = []): Promise<Generated> {
  // A partial run spreads its work over the keys the whole run did: with a pool or without, a
  // check sends on other keys (AUTH-1's probes carry a pool key, or create a key of their own).
  const stored = only.length > 0 ? loadEstimates() : null;
  const keys = stored?.measuredWith.keys;
  const measuring = measure(only.length > 0 ? ['--only', only.join(','), ...(keys ? ['--max-keys', String(keys)] : [])] : []);
  const page = await import('./support/coverage-page.js');
  const { report, exchanges } = await measuring;
  const fresh = page.spansOf(report, exchanges);
  // Of a partial run, its checks only: the preflight is the whole run's, as last measured.
  const storedSpans = only.length > 0 ? (JSON.parse(readFileSync(SPANS_FILE, 'utf8')) as CheckSpans) : null;
  const spans: CheckSpans = storedSpans ? { preflight: storedSpans.preflight, checks: page.merged(storedSpans.checks, fresh.checks, only) } : fresh;
  const measured = page.estimatesOf(report);
  const estimates = stored ? page.merged(stored.checks, measured, only) : measured;
  const before = new Map((stored?.checks ?? []).map((c) => [page.checkId(c), c]));
  const movedChecks = measured.flatMap((m) => {
    const c = before.get(page.checkId(m));
    if (!c || !page.selects(only, m.clause)) return [];
    const how = JSON.stringify(shape(c)) === JSON.stringify(shape(m)) ? moved(c, m) : ['its kinds of request or facts changed'];
    return how.length > 0 ? [`${page.checkId(m)}: ${how.join(', ')}`] : [];
  });
  const stale: StaleReason[] = [];
  const coverage = page.renderCoverage(spans, (reason) => stale.push(reason));
  return {
    coverage,
    estimates: page.renderEstimates(estimates, stored ? keys : report.environment.schedule?.keys),
    spans: page.renderSpans(spans),
    notReached: page.withoutStale(NOT_REACHED, stale),
    stale,
    moved: movedChecks,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let only: string[];
  try {
    only = selectionOf(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof SelectionError)) throw error;
    process.stderr.write(`coverage: ${error.message}\n`);
    process.exit(2);
  }
  if (only.length > 0) process.stdout.write(`measuring ${only.join(', ')}: the other checks' entries stay as stored\n`);
  else if (process.argv.includes('--changed')) process.stdout.write('no suite file of a family alone changed: measuring the whole suite\n');
  const generated = await generateCoverage(only);
  writeFileSync(COVERAGE_FILE, generated.coverage);
  writeFileSync(ESTIMATES_FILE, generated.estimates);
  writeFileSync(SPANS_FILE, generated.spans);
  writeFileSync(NOT_REACHED_FILE, generated.notReached);
  for (const { id, dimension, value } of generated.stale)
    process.stdout.write(`dropped the reason for ${id} ${dimension} "${value}" from ${NOT_REACHED_FILE}: a check reaches it now\n`);
  process.stdout.write(`wrote ${COVERAGE_FILE}, ${ESTIMATES_FILE} and ${SPANS_FILE}\n`);
  for (const line of generated.moved) process.stdout.write(`moved: ${line}\n`);
  if (generated.moved.length > 0)
    process.stdout.write(
      `${generated.moved.length} re-measured check(s) cost other than the whole run measured: as expected of a check you changed; of one you did not, its cost depends on what other families wrote, and npm run coverage measures the whole suite\n`,
    );
}
