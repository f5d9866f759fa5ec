/**
 * Sequences the stateful explorer draws by chance a run (`--explore N`), beyond the cover it
 * always runs: a share of the property budget, one sequence for every 25 cases (100 cases: 4),
 * never none. Each sequence is a few requests and at most `MOST_LIVE` keys; this default keeps a
 * full run at 60-s windows near a minute (docs/coverage.md). A certification refuses fewer.
 */
export function exploreBudget(propertyRuns: number): number {
  return Math.max(1, Math.round(propertyRuns / CASES_A_SEQUENCE));
}

const CASES_A_SEQUENCE = 25;

/** The most sequences `--explore` takes: each creates keys on the target. */
export const MOST_EXPLORED = 1000;
