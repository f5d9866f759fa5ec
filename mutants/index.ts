import type { ClauseId } from '../src/clauses/catalogue.js';
import type { Mutant } from './mutant.js';
import { AUTH_MUTANTS } from './registry/auth.js';
import { ERROR_MUTANTS } from './registry/errors.js';
import { GENERAL_MUTANTS } from './registry/general.js';
import { KEY_MUTANTS } from './registry/keys.js';
import { PAGINATION_MUTANTS } from './registry/pagination.js';
import { RATE_LIMIT_MUTANTS } from './registry/rate-limits.js';
import { RESOURCE_MUTANTS } from './registry/resources.js';
import { SUBMISSION_MUTANTS } from './registry/submissions.js';

/** Every mutant, by the name of its file; each family keeps its own list in `registry/`. */
export const MUTANTS = {
  ...GENERAL_MUTANTS,
  ...RESOURCE_MUTANTS,
  ...PAGINATION_MUTANTS,
  ...ERROR_MUTANTS,
  ...SUBMISSION_MUTANTS,
  ...AUTH_MUTANTS,
  ...KEY_MUTANTS,
  ...RATE_LIMIT_MUTANTS,
} as const satisfies Record<string, Mutant>;

export type MutantName = keyof typeof MUTANTS;

/**
 * Mutants the suite is known not to catch, each with the reason. A mutant that survives and is
 * not listed here fails `npm test`.
 */
export const KNOWN_SURVIVORS: Partial<Record<MutantName, string>> = {};

/**
 * Mutants also run under profiles/alternate.json, where every fact the document leaves open
 * differs: proof that the suite hard-codes none of the reference's choices.
 */
export const ALTERNATE_PROFILE_SAMPLE: readonly MutantName[] = [
  'html-error-pages',
  'record-retrieval-missing',
  'picklist-retrieval-missing',
  'has-more-off-by-one',
  'missing-param-422',
  'row-path-without-index',
  'submission-filters-ignored',
  'key-prefix-missing',
  'secret-tail-in-key-list',
  'revoked-key-grace',
  'other-account-record-visible',
  'rate-reset-milliseconds',
  'last-used-on-reads-only',
  'revoked-key-on-retrievals',
  'submission-filters-not-combined',
  'filtered-has-more-unfiltered',
];

/** Clauses no mutant can break observably, each with the reason (docs/coverage.md shows them). */
export const CLAUSES_WITHOUT_MUTANT: Partial<Record<ClauseId, string>> = {};
