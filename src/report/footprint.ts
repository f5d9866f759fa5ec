import { outstandingOf, type LedgerEntry } from '../broker/ledger.js';
import type { ConformanceDocument } from './document.js';

/** Keys the run created that its report does not show deleted again: live credentials on the target. */
export function leftOnTarget(doc: Pick<ConformanceDocument, 'resources'>): LedgerEntry[] {
  return outstandingOf([...doc.resources.created, ...doc.resources.removed], 'api_key');
}
