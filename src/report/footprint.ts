import { outstandingOf, type LedgerEntry } from '../broker/ledger.js';
import type { ConformanceDocument } from './document.js';

/** Keys the run created that its report does not show deleted again: live credentials on the target. */
export function leftOnTarget(doc: Pick<ConformanceDocument, 'resources'>): LedgerEntry[] {
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
 * way to delete one); keys stay only where they could not be deleted.
 */
export function footprintLine(doc: Pick<ConformanceDocument, 'resources'>): string {
  const submissions = doc.resources.created.filter((e) => e.kind === 'submission').length;
  const keys = leftOnTarget(doc).length;
  return `left on the target: ${submissions} submission${submissions === 1 ? '' : 's'} (no deletion in the API); ${keys} key${keys === 1 ? '' : 's'}`;
}
