import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** What the run created on the target, or removed again. Written the moment it happens. */
export interface LedgerEntry {
  readonly event: 'created' | 'deleted';
  readonly kind: 'api_key' | 'submission';
  /** The resource's id on the target; never a secret. */
  readonly id: string;
  readonly name?: string;
  readonly runId: string;
  readonly baseUrl: string;
  readonly at: string;
}

/**
 * An append-only JSON-lines file, so that keys a run created can be deleted even after the run
 * was killed (`conformance cleanup`). Kept in memory as well for the report.
 */
export class Ledger {
  readonly entries: LedgerEntry[] = [];
  constructor(readonly file: string | null) {}

  add(entry: LedgerEntry): void {
    this.entries.push(entry);
    if (this.file) {
      mkdirSync(dirname(this.file), { recursive: true });
      appendFileSync(this.file, `${JSON.stringify(entry)}\n`);
    }
  }

  /** Resources created and not deleted again, in creation order. */
  outstanding(kind: LedgerEntry['kind']): LedgerEntry[] {
    const deleted = new Set(this.entries.filter((e) => e.event === 'deleted' && e.kind === kind).map((e) => e.id));
    return this.entries.filter((e) => e.event === 'created' && e.kind === kind && !deleted.has(e.id));
  }
}
