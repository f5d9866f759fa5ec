import type { Modification } from '../reference/server.js';
import type { ClauseId } from '../src/clauses/catalogue.js';
import type { Profile } from '../src/profile/profile.js';
import type { OpenPoint } from './open-points.js';

/**
 * A conformant variant of the reference, the mirror of a mutant: one behaviour the document
 * leaves open, chosen differently. It runs under a profile that declares its facts truthfully,
 * and the suite must find it conformant with no failure and no undeclared warning.
 */
export interface Variant {
  /** The choice in one sentence, as an implementer would describe it. */
  readonly description: string;
  readonly openPoint: OpenPoint;
  /** Clauses whose checks could mistake this choice for a fault (docs/tolerance.md lists them). */
  readonly atRisk: readonly ClauseId[];
  /** The truthful profile, from the reference's. @default the reference's own */
  readonly profile?: (reference: Profile) => Profile;
  readonly modify?: Modification;
  /** SHOULD clauses the choice may legitimately warn on, each with the reason. */
  readonly mayWarn?: Readonly<Partial<Record<ClauseId, string>>>;
  /** The choice concerns rate limiting: the checks that exhaust a budget run, at the real ceiling. */
  readonly rateLimits?: boolean;
}

export function defineVariant(variant: Variant): Variant {
  return variant;
}
