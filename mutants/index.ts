import type { ClauseId } from '../src/clauses/catalogue.js';
import { discover } from './discover.js';
import type { Mutant } from './mutant.js';

// Every mutant is found by its file: a file of this folder (its name is the mutant's) whose default
// export is `defineMutant(...)`. Adding one is adding its file; nothing lists it a second time.

/** A mutant's name: its file's, without the extension (`key-list-by-creator`). */
export type MutantName = string;

/** Every mutant, by the name of its file, in the order of their names; not this index, the definition, the hooks mutants share, nor the discovery itself. */
export const MUTANTS: Readonly<Record<MutantName, Mutant>> = await discover<Mutant>(import.meta.url, ['index', 'mutant', 'support', 'discover'], (mutant) =>
  mutant && typeof mutant.modify === 'function' && mutant.breaks ? null : 'no mutant: its default export must be defineMutant({ description, breaks, modify })',
);

/** The mutant of this name; throws for a name no file of `mutants/` has. */
export function mutantNamed(name: MutantName): Mutant {
  const mutant = MUTANTS[name];
  if (!mutant) throw new Error(`no mutant ${name}: no file mutants/${name}.ts`);
  return mutant;
}

/**
 * Mutants the suite is known not to catch, each with the reason. A mutant that survives and is
 * not listed here fails `npm test`.
 */
export const KNOWN_SURVIVORS: Partial<Record<MutantName, string>> = {};

/**
 * Mutants whose fault the kill matrix, whose targets are on loopback, cannot tell from a conformant
 * deployment, each with the test that catches it where it can be told. An application server
 * believes X-Forwarded-For from an address it trusts as its front end's, and common defaults trust
 * loopback (src/http/trusted-peer.ts): a budget keyed by that header shows its fault only to a
 * client at an address no default trusts.
 */
export const CAUGHT_ELSEWHERE: Partial<Record<MutantName, string>> = {
  'rate-ip-from-forwarded-for': 'test/network/forwarded-address.test.ts',
};

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
