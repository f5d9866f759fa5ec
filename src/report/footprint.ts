import { outstandingOf, type LedgerEntry } from '../broker/ledger.js';

/**
 * What a footprint is read from: a report's resources and, for a run that did not finish, how it
 * stopped and when. The parts of `ConformanceDocument` by shape, not by name: the document marks
 * its verdict with a key left (`becauseWithKeyLeft`), and naming the document here would tie the
 * two files in a circle.
 */
interface Footprint {
  readonly resources: { readonly created: readonly LedgerEntry[]; readonly removed: readonly LedgerEntry[] };
  readonly stopped?: { readonly kind: string };
  readonly endedAt?: string;
}

/** Keys the run created that its report does not show deleted again: live credentials on the target. */
export function leftOnTarget(doc: Pick<Footprint, 'resources'>): LedgerEntry[] {
  return outstandingOf([...doc.resources.created, ...doc.resources.removed], 'api_key');
}

/** What the verdict's reason carries when the run leaves a live key: read where the verdict is. */
export const KEY_LEFT = '(key left)';

/** The verdict's reason, marked when the ledger shows a key of the run still live on the target. */
export function becauseWithKeyLeft(because: string, ledger: readonly LedgerEntry[]): string {
  if (outstandingOf(ledger, 'api_key').length === 0 || because.includes(KEY_LEFT)) return because;
  return `${because} ${KEY_LEFT}`;
}

/**
 * One line: what the run leaves on the target. Submissions always stay (the document gives no
 * way to delete one); keys stay only where they could not be deleted. A run that has not finished
 * (the provisional report) knows only what its ledger held when the report was last written: it
 * names the keys that may be live, and never says a count of what is left.
 */
export function footprintLine(doc: Footprint): string {
  const submissions = doc.resources.created.filter((e) => e.kind === 'submission').length;
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  if (doc.stopped?.kind === 'unfinished') {
    const keys = leftOnTarget(doc);
    const asOf = doc.endedAt ? ` as of ${doc.endedAt}` : '';
    const live =
      keys.length === 0
        ? `no key it created was live${asOf}`
        : `these keys may be live: ${keys.map((e) => `${e.name ?? '(no name)'} [${e.id}]`).join(', ')} (the ledger${asOf})`;
    return `the run did not finish: ${live}; \`conformance cleanup\` deletes every key its ledger lists; ${plural(submissions, 'submission')} created by then (no deletion in the API)`;
  }
  return `left on the target: ${plural(submissions, 'submission')} (no deletion in the API); ${plural(leftOnTarget(doc).length, 'key')}`;
}
