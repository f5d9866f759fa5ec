import { basename } from 'node:path';
import { CLAUSE_IDS, familyOf, type Family } from '../clauses/catalogue.js';
import { selectionReason, type Selection } from '../clauses/selection.js';

/**
 * The order suites run in. Walks of collections come before anything writes, and again after the
 * writes (after-writes, once the rate-limit suite's waits have left the main key's budget whole);
 * checks that send requests without a key come before the rate-limit suite spends the per-IP
 * budget on purpose; the run-wide phase judges the whole log, so it comes last.
 */
export const SUITE_ORDER = ['general', 'resources', 'pagination', 'errors', 'auth', 'submissions', 'keys', 'rate-limits', 'after-writes', 'run-wide'] as const;

export type SuiteName = (typeof SUITE_ORDER)[number];

/**
 * The families whose clauses each suite file checks: one file a family, the written lists walked
 * again, and the run-wide judges (test/suites-declare-clauses.test.ts keeps this true).
 */
export const SUITE_FAMILIES: Readonly<Record<SuiteName, readonly Family[]>> = {
  general: ['GEN'],
  resources: ['RES'],
  pagination: ['PAG'],
  errors: ['ERR'],
  auth: ['AUTH'],
  submissions: ['SUB'],
  keys: ['KEY'],
  'rate-limits': ['RATE'],
  'after-writes': ['PAG', 'SUB'],
  'run-wide': ['GEN', 'ERR', 'PAG', 'KEY', 'RATE'],
};

/**
 * The suite files a run loads (`suites/general.suite.ts`): those that may hold a clause the
 * selection keeps. A file of which `--only` or `--skip` leaves every check out would only load,
 * collect and skip them, some half a second of a short run; its clauses are still reported, left
 * out by the selection (src/verdict/verdict.ts).
 */
export function selectedSuiteFiles(selection: Selection): string[] {
  const kept = new Set(CLAUSE_IDS.filter((id) => selectionReason(id, selection) === null).map(familyOf));
  return SUITE_ORDER.filter((name) => SUITE_FAMILIES[name].some((family) => kept.has(family))).map((name) => `suites/${name}.suite.ts`);
}

/** A suite file's registry name: `suites/keys.suite.ts` is `keys`. */
export function suiteName(file: string): string {
  return basename(file).replace(/\.suite\.ts$/, '');
}
