import type { Mutant } from '../../mutants/mutant.js';
import type { ReferenceOptions } from '../../reference/server.js';
import { familyOf, type ClauseId, type Family } from '../../src/clauses/catalogue.js';
import type { Profile } from '../../src/profile/profile.js';
import type { ConformanceDocument } from '../../src/report/document.js';
import { matrixArgs, matrixTarget } from './matrix.js';

const FLAGGED = new Set(['fail', 'warn', 'error']);

export interface KillVerdict {
  /** Declared clauses the suite did not flag as declared: `GEN-1 expected fail, got pass`. */
  readonly missed: string[];
  /** Clauses flagged beyond the declared and collateral ones. */
  readonly unexpected: string[];
}

/** Compares a run's clause statuses with what a mutant declares it breaks. */
export function judgeKill(mutant: Mutant, report: ConformanceDocument): KillVerdict {
  const status = new Map(report.clauses.map((c) => [c.id as string, c]));
  const missed = Object.entries(mutant.breaks)
    .filter(([id, expected]) => status.get(id)?.status !== expected)
    .map(([id, expected]) => `${id} expected ${expected}, got ${status.get(id)?.status ?? 'nothing'}`);
  const allowed = new Set<string>([...Object.keys(mutant.breaks), ...(mutant.collateral ?? [])]);
  const unexpected = report.clauses.filter((c) => FLAGGED.has(c.status) && !allowed.has(c.id)).map((c) => `${c.id} ${c.status}: ${c.reason ?? ''}`);
  return { missed, unexpected };
}

function clausesOf(mutant: Mutant): ClauseId[] {
  return [...(Object.keys(mutant.breaks) as ClauseId[]), ...(mutant.collateral ?? [])];
}

/** A mutant of the rate-limit clauses runs with the checks that exhaust a budget. */
export function touchesRate(mutant: Mutant): boolean {
  return clausesOf(mutant).some((id) => familyOf(id) === 'RATE');
}

/**
 * The families a mutant's run selects (`--only`): those of the clauses it declares and may trip,
 * and those whose checks provoke it. It must still be caught on its clauses and flag nothing else
 * among the families that ran; the others are judged against a conformant target by the tolerance
 * matrix. A whole run costs two to three times a selected one, and the matrix makes a hundred.
 */
export function killFamilies(mutant: Mutant): Family[] {
  return [...new Set([...clausesOf(mutant).map(familyOf), ...(mutant.provokedBy ?? [])])];
}

/** The reference and the CLI's arguments of a mutant's kill-matrix run. */
export function killRun(mutant: Mutant, profile: Profile): { readonly target: ReferenceOptions; readonly args: readonly string[] } {
  return {
    target: matrixTarget(mutant.modify, profile),
    args: [...matrixArgs(touchesRate(mutant)), '--only', killFamilies(mutant).join(',')],
  };
}
