import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';

/** What the run created on the target, or removed again. Written the moment it happens. */
export interface LedgerEntry {
  /**
   * `creating`: about to ask for a resource of this name, written before the request, so that a
   * run killed before it could record the answer still leaves a trace; `not_created`: the
   * announced creation did not happen (refused, or not on the target); `created`; `deleted`.
   */
  readonly event: 'creating' | 'not_created' | 'created' | 'deleted';
  readonly kind: 'api_key' | 'submission';
  /** The resource's id on the target; never a secret. UNKNOWN_ID when the target named none. */
  readonly id: string;
  readonly name?: string;
  readonly runId: string;
  readonly baseUrl: string;
  readonly at: string;
  /** Process and host of the run that wrote the entry: `cleanup` leaves a live run's keys alone. */
  readonly pid?: number;
  readonly host?: string;
  /** Why a deletion was recorded when it was not a plain 2xx (`already gone: 404`). */
  readonly note?: string;
}

/** The id recorded for a key whose creation response named no id (found again by its name). */
export const UNKNOWN_ID = '(unknown id)';

/** A ledger line of the run `where`, stamped now: an API key unless `kind` says otherwise. */
export function ledgerEntry(
  where: { readonly runId: string; readonly baseUrl: string },
  line: { event: LedgerEntry['event']; id: string; kind?: LedgerEntry['kind']; name?: string | null | undefined; note?: string | undefined },
): LedgerEntry {
  return {
    event: line.event,
    kind: line.kind ?? 'api_key',
    id: line.id,
    ...(line.name ? { name: line.name } : {}),
    runId: where.runId,
    baseUrl: where.baseUrl,
    at: new Date().toISOString(),
    ...(line.note ? { note: line.note } : {}),
  };
}

/**
 * An append-only JSON-lines file, so that keys a run created can be deleted even after the run
 * was killed (`conformance cleanup`). Kept in memory as well for the report.
 */
export class Ledger {
  readonly entries: LedgerEntry[] = [];
  private readonly watchers: (() => void)[] = [];
  /**
   * `outstanding` by kind, as of the entry count it was computed at: the pacer asks for the live
   * keys before every request on the key that deletes them (Broker's hold-back), and the entries
   * only grow, a few dozen a run against some two thousand requests.
   */
  readonly #outstanding = new Map<LedgerEntry['kind'], { readonly at: number; readonly entries: readonly LedgerEntry[] }>();
  constructor(readonly file: string | null) {}

  /** Called after every entry is added (the provisional report is written again). */
  watch(watcher: () => void): void {
    this.watchers.push(watcher);
  }

  add(entry: LedgerEntry): void {
    const stamped: LedgerEntry = { ...entry, pid: entry.pid ?? process.pid, host: entry.host ?? hostname() };
    this.entries.push(stamped);
    if (this.file) {
      mkdirSync(dirname(this.file), { recursive: true });
      appendFileSync(this.file, `${JSON.stringify(stamped)}\n`);
    }
    for (const watcher of this.watchers) watcher();
  }

  /** Resources created and not deleted again, in creation order. */
  outstanding(kind: LedgerEntry['kind']): LedgerEntry[] {
    let known = this.#outstanding.get(kind);
    if (known?.at !== this.entries.length) {
      known = { at: this.entries.length, entries: outstandingOf(this.entries, kind) };
      this.#outstanding.set(kind, known);
    }
    return [...known.entries];
  }
}

/** Which key an entry speaks of: its run, id and name (an announced creation's id is UNKNOWN_ID). */
export const ledgerIdentity = (e: LedgerEntry) => `${e.baseUrl} ${e.runId} ${e.id} ${e.name ?? ''}`;

/**
 * Created and not deleted again (a deletion matches by run, id and name), and announced creations
 * whose answer never reached the ledger: those carry UNKNOWN_ID and are found again by name.
 */
export function outstandingOf(entries: readonly LedgerEntry[], kind: LedgerEntry['kind']): LedgerEntry[] {
  const named = (e: LedgerEntry) => `${e.baseUrl} ${e.runId} ${e.name ?? ''}`;
  const ofKind = entries.filter((e) => e.kind === kind);
  const deleted = new Set(ofKind.filter((e) => e.event === 'deleted').map(ledgerIdentity));
  // Each announcement is answered by a later entry of its name that tells what became of that
  // creation: made (created), refused (not_created), or found by name and deleted (its id unknown).
  // In order, one answer each: a second key asked for under a live key's name (KEY-4) is still
  // announced, and outstanding, when the first one's creation was answered long before.
  const open = new Map<string, LedgerEntry[]>();
  for (const e of ofKind) {
    if (e.name === undefined) continue;
    const announced = open.get(named(e)) ?? [];
    if (e.event === 'creating') open.set(named(e), [...announced, e]);
    else if (e.event === 'created' || e.event === 'not_created' || (e.event === 'deleted' && e.id === UNKNOWN_ID)) open.set(named(e), announced.slice(1));
  }
  const pending = new Set([...open.values()].flat());
  return ofKind.filter((e) => (e.event === 'created' ? !deleted.has(ledgerIdentity(e)) : pending.has(e)));
}

/** Every entry of a ledger file; a torn last line (a run killed mid-write) is ignored. */
export function readLedgerFile(file: string): LedgerEntry[] {
  if (!existsSync(file)) return [];
  const out: LedgerEntry[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line) as LedgerEntry);
    } catch {
      // A partial line from a killed run: nothing to delete from it.
    }
  }
  return out;
}
