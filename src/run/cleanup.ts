import { ledgerIdentity, UNKNOWN_ID, type Ledger, type LedgerEntry } from '../broker/ledger.js';
import { TransportFailure, type HttpClient } from '../http/client.js';
import { fillPath, type Profile } from '../profile/profile.js';
import type { KeyDeletion } from '../keys/deletion.js';
import type { Output } from '../output.js';
import { sleep } from '../sleep.js';

/** A key that could not be deleted, and why. */
export interface LeftBehind {
  readonly entry: LedgerEntry;
  readonly reason: string;
}

export interface CleanupResult {
  readonly deleted: LedgerEntry[];
  readonly leftBehind: LeftBehind[];
}

/** Times the teardown reads the ledger again for keys that reached it while it deleted. */
const ROUNDS = 3;
/** How long a creation announced but not yet on the target is given to be answered before the ledger is read again. */
const IN_FLIGHT_SETTLE_MS = 500;

/** Pages of the key list read when looking a key up by name: 100 a page covers any real account. */
const MAX_LIST_PAGES = 50;

/**
 * Deletes what the run created and did not delete again (keys, from the ledger), also when
 * checks failed or the target misbehaved, within `withinMs`: the teardown's bound. `http` is the
 * teardown's client, which does not pace (the pacer kept its budget back, `Pacer` `holdBack`)
 * and does not wait out a 429, so the teardown never waits for a rate-limit window. Called at
 * the end of every run and on a signal; says what it did only when there was something to do.
 */
export async function cleanupCreated(
  http: HttpClient,
  ledger: Ledger,
  profile: Profile,
  deletion: KeyDeletion,
  io: Output,
  withinMs = Number.POSITIVE_INFINITY,
): Promise<CleanupResult> {
  const outstanding = ledger.outstanding('api_key');
  if (outstanding.length === 0) return { deleted: [], leftBehind: [] };
  const spec = { path: deletion.path, ...(deletion.leaveKeys ? { why: 'left by --leave-keys: no key path is known' } : {}) };
  const work = (async (): Promise<CleanupResult> => {
    const all: CleanupResult = { deleted: [], leftBehind: [] };
    const tried = new Set<string>();
    // Checks stopped by a signal may still have a creation on the wire: its key reaches the ledger
    // after the first round read it, so the ledger is read again until it holds nothing new.
    for (let round = 0, batch = outstanding; batch.length > 0 && round < ROUNDS; round++) {
      for (const entry of batch) tried.add(ledgerIdentity(entry));
      const done = await deleteKeys(http, ledger, profile, batch, spec);
      all.deleted.push(...done.deleted);
      all.leftBehind.push(...done.leftBehind);
      // A creation announced and not yet on the target: its answer may still come.
      if (done.notCreated > 0) await sleep(IN_FLIGHT_SETTLE_MS);
      batch = ledger.outstanding('api_key').filter((entry) => !tried.has(ledgerIdentity(entry)));
    }
    return all;
  })();
  let timer: NodeJS.Timeout | undefined;
  const bound = Number.isFinite(withinMs)
    ? new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), withinMs)))
    : new Promise<null>(() => undefined);
  const finished = await Promise.race([work, bound]).finally(() => clearTimeout(timer));
  // Past the bound: whatever the ledger does not show deleted stays, and says why.
  const result = finished ?? {
    deleted: ledger.entries.filter((e) => e.event === 'deleted' && outstanding.some((o) => o.id === e.id || (o.name !== undefined && o.name === e.name))),
    leftBehind: ledger.outstanding('api_key').map((entry) => ({ entry, reason: `the teardown's bound of ${Math.round(withinMs / 1000)} s was reached` })),
  };
  io.out(`cleanup: ${describeCleanup(result)}`);
  return result;
}

/** How many deleted keys the cleanup line names. */
const DELETED_NAMED = 3;

/** One line: what was deleted and what stays on the target (by name and id, never a secret). */
export function describeCleanup(result: CleanupResult): string {
  // Deleted keys need no action: a few are named, the ledger names each (a pool of 20 made a line of 1,600 characters).
  const named = result.deleted.slice(0, DELETED_NAMED).map(label);
  const more = result.deleted.length - named.length;
  const list = named.length > 0 ? ` (${named.join(', ')}${more > 0 ? ` and ${more} more, each in the ledger` : ''})` : '';
  const parts = [`deleted ${result.deleted.length} key(s) the suite created${list}`];
  if (result.leftBehind.length > 0) {
    const byReason = new Map<string, string[]>();
    for (const { entry, reason } of result.leftBehind) byReason.set(reason, [...(byReason.get(reason) ?? []), label(entry)]);
    const groups = [...byReason].map(([reason, labels]) => `${labels.join(', ')} (${reason})`);
    parts.push(`${result.leftBehind.length} key(s) LEFT ON THE TARGET: ${groups.join('; ')}`);
  }
  return parts.join('; ');
}

function label(entry: LedgerEntry): string {
  return `${entry.name ?? '(no name)'} [${entry.id}]`;
}

/**
 * Deletes each key through the profile's key path with the configured key, and records every
 * deletion in the ledger. A 404 means the key is already gone: recorded too, so that `cleanup`
 * does not try again.
 */
export async function deleteKeys(
  http: HttpClient,
  ledger: Ledger,
  profile: Profile,
  entries: readonly LedgerEntry[],
  /** The key path to delete at (default: the profile's) and why none is known. */
  deletion: { readonly path: string | null; readonly why?: string } = { path: profile.paths.apiKey },
): Promise<CleanupResult & { readonly notCreated: number }> {
  const deleted: LedgerEntry[] = [];
  const leftBehind: LeftBehind[] = [];
  let notCreated = 0;
  const template = deletion.path;
  // The key list by name; 'unread' where the target did not answer it, which shows nothing either way.
  let byName: Map<string, string[]> | 'unread' | null = null;
  for (const entry of entries) {
    if (!template) {
      leftBehind.push({ entry, reason: deletion.why ?? 'no key path is declared or usable, so keys cannot be deleted' });
      continue;
    }
    let id: string | null = entry.id;
    if (id === UNKNOWN_ID) {
      byName ??= await keyIdsByName(http, profile).catch((error: unknown) => {
        // A target that stops answering leaves these keys listed as left behind, not a crash.
        if (error instanceof TransportFailure) return 'unread' as const;
        throw error;
      });
      if (byName === 'unread') {
        // Announced and never answered: the target may have made it before it stopped answering.
        leftBehind.push({ entry, reason: 'its creation was never answered, and the key list could not be read to find it' });
        continue;
      }
      // A key of that name whose id the ledger does not know: another live key may share the name (KEY-4).
      const known = new Set(ledger.entries.map((e) => e.id));
      id = (entry.name ? byName.get(entry.name) : undefined)?.find((candidate) => !known.has(candidate)) ?? null;
      if (id === null && entry.event === 'creating') {
        // Announced, never answered, and not on the target: the creation did not happen.
        ledger.add({ ...entry, event: 'not_created', at: new Date().toISOString(), pid: process.pid, note: 'not in the key list' });
        notCreated++;
        continue;
      }
      if (id === null) {
        leftBehind.push({ entry, reason: 'its creation response named no id and the key list does not show it by name' });
        continue;
      }
    }
    try {
      // Sent again after a reset or a front end's 502/504: a second DELETE's 404 is taken for done.
      const res = await http.delete(fillPath(template, id), { resendable: true });
      if (res.status === 404 || (res.status >= 200 && res.status < 300)) {
        const done: LedgerEntry = {
          ...entry,
          id: entry.event === 'creating' ? entry.id : id,
          event: 'deleted',
          at: new Date().toISOString(),
          pid: process.pid,
          ...(res.status === 404 ? { note: 'already gone: 404' } : {}),
        };
        ledger.add(done);
        deleted.push(done);
      } else {
        leftBehind.push({ entry, reason: `DELETE answered ${res.status}` });
      }
    } catch (error) {
      if (!(error instanceof TransportFailure)) throw error;
      leftBehind.push({ entry, reason: error.message });
    }
  }
  return { deleted, leftBehind, notCreated };
}

/** Name → ids of every key the list shows (keys may share a name), where the profile names the members; empty otherwise. */
export async function keyIdsByName(http: HttpClient, profile: Profile): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const key of await listKeys(http, profile)) out.set(key.name, [...(out.get(key.name) ?? []), key.id]);
  return out;
}

/** Every key the list shows, as name and id; empty when the profile lacks the list or its members. */
export async function listKeys(http: HttpClient, profile: Profile): Promise<{ name: string; id: string }[]> {
  const { apiKeyList } = profile.paths;
  const { id: idField, name: nameField } = profile.apiKeyFields;
  if (!apiKeyList || !idField || !nameField) return [];
  const out: { name: string; id: string }[] = [];
  for (let page = 1; page <= MAX_LIST_PAGES; page++) {
    const res = await http.get(apiKeyList, { query: { page, limit: 100 } });
    const body = res.json as { items?: unknown; has_more?: unknown } | undefined;
    if (res.status !== 200 || !Array.isArray(body?.items)) break;
    for (const item of body.items as Record<string, unknown>[]) {
      if (typeof item?.[nameField] === 'string' && typeof item[idField] === 'string')
        out.push({ name: item[nameField] as string, id: item[idField] as string });
    }
    if (body.has_more !== true) break;
  }
  return out;
}
