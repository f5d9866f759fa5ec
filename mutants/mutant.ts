import type { ClauseId, Family } from '../src/clauses/catalogue.js';
import type { Modification } from '../reference/server.js';

/** What the suite must give a clause a mutant breaks: `fail` for MUST clauses, `warn` for SHOULD. */
export type Expected = 'fail' | 'warn';

/**
 * A deliberately faulty variant of the reference: one small, named change to its behaviour, the
 * clauses it breaks, and clauses it may trip as a side effect.
 */
export interface Mutant {
  /** The fault in one sentence, as a vendor would ship it. */
  readonly description: string;
  readonly breaks: Readonly<Partial<Record<ClauseId, Expected>>>;
  /** Clauses the fault may also trip; anything else flagged is a false alarm. */
  readonly collateral?: readonly ClauseId[];
  /**
   * Families whose checks send the requests that show the fault, where those are not the families
   * of its clauses (a 500 to a key creation is GEN-3's, sent by KEY's checks): its kill-matrix run
   * selects these too (test/support/kill.ts).
   */
  readonly provokedBy?: readonly Family[];
  readonly modify: Modification;
}

export function defineMutant(mutant: Mutant): Mutant {
  return mutant;
}
