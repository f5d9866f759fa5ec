import type { ClauseId } from '../clauses/catalogue.js';
import { observationsOf, type Fingerprints, type Observed } from './fingerprint.js';

/**
 * Likely causes: a run's failures and warnings matched against the fingerprints of the known
 * defects (the mutants'), clause by clause. Advice, not a verdict: it changes no status and no
 * exit code, and where nothing matches well enough it says so rather than guess.
 */

/**
 * How strongly a known defect's fingerprint matches: `high` where the run shows on the clause exactly
 * what the defect shows and most of the rest alike (three quarters of the whole run's observations),
 * `medium` from a score of 0.45, `low` from 0.2. A defect that shows the same on the clause but
 * otherwise differs elsewhere is a kin, not the one: medium at most.
 */
export type Confidence = 'high' | 'medium' | 'low';

export interface LikelyCause {
  /** The known defect (a mutant's name). */
  readonly defect: string;
  /** The defect in one sentence. */
  readonly sentence: string;
  /** 0 to 1: how much of what the run and the defect show of the clause they show alike, and of the whole run. */
  readonly score: number;
  readonly confidence: Confidence;
  /** The observations of the clause they share: why it matches. */
  readonly shared: readonly string[];
}

export interface ClauseDiagnosis {
  readonly clause: ClauseId;
  /** At most three, strongest first; empty: no known defect matches. */
  readonly causes: readonly LikelyCause[];
}

/** At most this many causes a clause. */
const MOST = 3;

export function confidenceOf(onClause: number, wholeRun: number, score: number): Confidence | null {
  if (onClause === 1 && wholeRun >= 0.75) return 'high';
  if (score >= 0.45) return 'medium';
  if (score >= 0.2) return 'low';
  return null;
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let both = 0;
  for (const x of a) if (b.has(x)) both++;
  return both / (a.size + b.size - both);
}

/**
 * Each clause that failed or warned in `checks`, with its likely causes among `fingerprints`: the
 * clause's observations weigh most, the whole run's break ties between defects that show alike on
 * it. `leaveOut` drops one defect (the leave-one-out test).
 */
export function diagnose(checks: readonly Observed[], fingerprints: Fingerprints, leaveOut?: string): ClauseDiagnosis[] {
  return diagnoseObservations(observationsOf(checks), fingerprints, leaveOut);
}

/** The same, from a run's observations (`observationsOf`): a fingerprint's own, for the leave-one-out test. */
export function diagnoseObservations(observations: readonly string[], fingerprints: Fingerprints, leaveOut?: string): ClauseDiagnosis[] {
  const run = new Set(observations);
  if (run.size === 0) return [];
  const clauses = [...new Set(observations.map((o) => o.slice(0, o.indexOf('/')) as ClauseId))];
  const known = Object.entries(fingerprints.mutants).filter(([name]) => name !== leaveOut);
  return clauses.map((clause) => {
    const ofClause = (all: Iterable<string>) => new Set([...all].filter((o) => o.startsWith(`${clause}/`)));
    const mine = ofClause(run);
    const causes = known
      .flatMap(([defect, print]): LikelyCause[] => {
        const theirs = new Set(print.observations);
        const onClause = jaccard(mine, ofClause(theirs));
        const wholeRun = jaccard(run, theirs);
        const score = Math.round((0.75 * onClause + 0.25 * wholeRun) * 100) / 100;
        const shared = [...mine].filter((o) => theirs.has(o));
        const confidence = confidenceOf(onClause, wholeRun, score);
        return confidence !== null && shared.length > 0 ? [{ defect, sentence: print.sentence, score, confidence, shared }] : [];
      })
      .sort((a, b) => b.score - a.score || a.defect.localeCompare(b.defect))
      .slice(0, MOST);
    return { clause, causes };
  });
}

/** One line for a clause: its likely causes, or that no known defect matches. */
export function diagnosisLine(d: ClauseDiagnosis): string {
  if (d.causes.length === 0) return `${d.clause}: no known defect matches`;
  return `${d.clause}: likely ${d.causes.map((c) => `${c.sentence} (${c.confidence}, ${c.score.toFixed(2)})`).join('; or ')}`;
}

/** The lines a report puts beside a clause's evidence: its likely causes, or none where it has no diagnosis. */
export function likelyCauseLines(doc: { readonly diagnosis?: readonly ClauseDiagnosis[] | undefined }, clause: ClauseId): string[] {
  const d = doc.diagnosis?.find((x) => x.clause === clause);
  if (!d) return [];
  if (d.causes.length === 0) return ['likely cause: no known defect matches'];
  return d.causes.map((c) => `likely cause (${c.confidence}, ${c.score.toFixed(2)}; advice, not a verdict): ${c.sentence}`);
}
