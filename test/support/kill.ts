import type { Mutant } from '../../mutants/mutant.js';
import type { ConformanceDocument } from '../../src/report/document.js';

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
