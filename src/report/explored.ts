import type { CheckRecord } from '../check/outcome.js';
import type { ConformanceDocument } from './document.js';

// What the explorer explored, for every report format: the sequences a check ran (the cover's, then
// those drawn from the seed) and the seed that draws them again, on a passing run too, so that a pass
// says what it stands on and a reader can replay it.

/** The first check of the run that explored: the explorer's checks share one exploration and carry the same list. */
export function exploredOf(doc: Pick<ConformanceDocument, 'clauses'>): NonNullable<CheckRecord['explored']> | null {
  for (const clause of doc.clauses) for (const check of clause.checks) if (check.explored) return check.explored;
  return null;
}

/** One line for a summary: how many sequences, how many drawn, and the seed. */
export function exploredLine(explored: NonNullable<CheckRecord['explored']>): string {
  const drawn = explored.sequences.filter((s) => !s.startsWith('cover ')).length;
  return (
    `The explorer ran ${explored.sequences.length} sequence(s) of the key lifecycle (${explored.sequences.length - drawn} of its cover, ` +
    `${drawn} drawn from seed ${explored.seed}; --seed ${explored.seed} draws them again): each is listed in report.html and conformance.json`
  );
}

/** The sequences, one a line, after a heading line with the seed. */
export function exploredLines(explored: NonNullable<CheckRecord['explored']>): string[] {
  return [`explored (seed ${explored.seed}):`, ...explored.sequences.map((s) => `  ${s}`)];
}
