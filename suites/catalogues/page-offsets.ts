import type { ClauseId } from '../../src/kit.js';

/**
 * Pages whose offset, (page − 1) × limit, crosses an integer boundary a stack may keep it in: a
 * 32-bit int (2^31 signed, 2^32 unsigned), a double's exact integers (2^53), a 64-bit int (2^63).
 * Each page and limit alone is a plain integer the document allows; only their product is large, so
 * a check of either alone never shows it. Each is a page past the end of every list (PAG-9: empty
 * with the same total, or 422 naming page; never a 5xx, which GEN-3's run-wide judge also sees).
 * Data, not code: every list's PAG-9 check sends each, every run; docs/coverage.md lists them.
 */
export interface PageOffsetEntry {
  /** How the report names it. */
  readonly name: string;
  readonly page: bigint;
  readonly limit: bigint;
  readonly clauses: readonly ClauseId[];
  readonly unreached: Readonly<Partial<Record<ClauseId, string>>>;
}

/** A limit of 2^13 makes every product an exact power of two, so that a wrap lands on offset 0 or its negative. */
const LIMIT = 8192n;
const PAST_THE_END: readonly ClauseId[] = ['PAG-9', 'GEN-3'];

const at = (power: bigint, name: string): PageOffsetEntry => ({
  name: `offset ${name}: page 2^${power - 13n} + 1, limit 2^13`,
  page: 2n ** (power - 13n) + 1n,
  limit: LIMIT,
  clauses: PAST_THE_END,
  unreached: {},
});

export const PAGE_OFFSETS: readonly PageOffsetEntry[] = [at(31n, '2^31'), at(32n, '2^32'), at(53n, '2^53'), at(63n, '2^63')];
