import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Account, ApiKeyRecord, Submission } from '../../../reference/store.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: a Laravel API on MySQL/InnoDB. Eloquent's default timestamps
 * are `TIMESTAMP` columns of whole seconds (`$table->timestamps()`, date format `Y-m-d H:i:s`, so the
 * fraction of the second is dropped when the row is written), and the models that clients create
 * (API keys, submissions) take random version-4 UUID keys (Laravel 12's `HasVersion4Uuids`, or
 * `Str::uuid()`). Every list is `->orderBy('created_at')->orderBy('id')->paginate($limit)`: oldest
 * first, ties within the same second broken by the (random) id. `paginate()` runs two statements,
 * `select count(*) ...` for the total and `select ... limit ? offset ?` for the page, and the list
 * controller runs both in one `DB::transaction()` at InnoDB's default REPEATABLE READ: the
 * consistent-read snapshot is taken by the first SELECT, so a row committed by another request
 * while the list is between its statements is in neither the count nor the page. The two round
 * trips to the database take a few milliseconds. Rows imported at sign-up (workspaces, models,
 * catalogue) carry their import times in their own order, and records keep their import order.
 *
 * Here: key ids and submission ids are random UUIDs; a key's `created_at` and a submission's
 * `created_at` are whole seconds; the key list and the submission list are ordered by
 * (created_at, id); every list request reads one snapshot of the account, taken after a first
 * round trip (BEGIN, ~1 ms) and served after the statements' round trips (~3 ms), so that a write
 * that lands meanwhile is in neither total_count nor items.
 *
 * Why it is conformant:
 * - Pagination envelope; PAG-1, PAG-7: total_count is an exact `count(*)`, and it and the page are
 *   read from the same snapshot, so they always agree with each other and with has_more (PAG-6);
 *   "number of resources matching the filters across all pages" is exact at the snapshot's instant.
 *   A write is visible to every request that starts after it has been answered (read-your-writes:
 *   POST, then GET, sees the new row), so KEY-3, KEY-6 and SUB-4 see what they just created or
 *   deleted. A list request that overlaps a write in time may show the collection before it or
 *   after it, never half of it: HTTP orders no concurrent requests.
 * - PAG-8: (created_at, id) is a total order on immutable values (id is unique), so it is the same
 *   on every request: a walk of an unchanging collection sees each resource once, every page but
 *   the last holds exactly `limit` items.
 * - The document fixes no order (open point `list-order`); nothing says that a key or a submission
 *   created later lists after one created earlier in the same second. It fixes no format for ids
 *   ("id | string"), and a UUID is unique (RES-6); the key path takes the new key ids (KEY-5,
 *   KEY-6). A key's and a submission's `created_at` are not in the document at all (the key's
 *   documented members are its name and last-use time, and the submission's fields are "not
 *   shown"); last_used_at keeps its full precision, so it still moves forward at every use (KEY-7).
 * - KEY-4: an id is minted from its own random bytes, never from the secret.
 * - PAG-2..PAG-5, PAG-9, PAG-10: page and limit are read as in the reference; a page past the end
 *   is the reference's 200 with empty items, has_more false and the same total_count.
 * - The few milliseconds of each list request are far below any timeout; nothing else changes
 *   (rate limiting happens before the snapshot and is the reference's). No profile fact changes.
 */

/** Round trip of BEGIN and the first statement, before the snapshot exists. */
const BEGIN_MS = 1;
/** Round trips of the count and the page query, read from the snapshot. */
const STATEMENTS_MS = 3;

/** A whole-seconds TIMESTAMP column: the fraction of the second is dropped when the row is written. */
const wholeSeconds = (iso: string): string => new Date(Math.floor(Date.parse(iso) / 1000) * 1000).toISOString();

/** The account as one REPEATABLE READ snapshot sees it: its rows copied, so later writes leave it alone. */
function snapshotOf(account: Account): Account {
  return {
    id: account.id,
    data: account.data,
    keys: new Map([...account.keys].map(([id, key]) => [id, { ...key }])),
    submissions: account.submissions.map((submission) => ({ ...submission })),
  };
}

export default defineVariant({
  description:
    'Laravel on MySQL: keys and submissions get random UUIDs and whole-second created_at, lists are ordered by (created_at, id) so rows of the same second follow their random ids, and each list request reads one REPEATABLE READ snapshot in which count(*) and the page query agree, a few ms of database round trips long',
  openPoint: 'list-order',
  atRisk: ['PAG-1', 'PAG-6', 'PAG-7', 'PAG-8', 'SUB-1', 'SUB-4', 'KEY-3', 'KEY-5', 'KEY-6', 'KEY-7', 'RES-6'],
  modify: ({ app, state, behaviour }) => {
    const { store, profile } = state;

    // Random version-4 keys; created_at written to a whole-seconds column.
    const rekey = (account: Account, key: ApiKeyRecord) => {
      account.keys.delete(key.id);
      Object.assign(key as { id: string; createdAt: string }, { id: randomUUID(), createdAt: wholeSeconds(key.createdAt) });
      account.keys.set(key.id, key);
    };
    const storeSubmissionsAsRows = (account: Account) => {
      const rows = account.submissions;
      rows.push = (...added: Submission[]) => {
        for (const row of added) row.created_at = wholeSeconds(row.created_at);
        return Array.prototype.push.apply(rows, added);
      };
    };
    for (const account of store.accounts) {
      for (const key of [...account.keys.values()]) rekey(account, key);
      storeSubmissionsAsRows(account);
    }
    const createKey = store.createKey.bind(store);
    store.createKey = (account, name) => {
      const made = createKey(account, name);
      rekey(account, made.record);
      return made;
    };
    const nextId = store.nextId.bind(store);
    store.nextId = (prefix) => (prefix === 'sub' ? randomUUID() : nextId(prefix));

    // ORDER BY created_at, id for the tables that carry a created_at; the imported ones keep their import order.
    behaviour.listOrder = (total, itemAt) => {
      if (total < 2) return null;
      const createdOf = (item: unknown): string | null => {
        const row = item as { createdAt?: unknown; created_at?: unknown } | undefined;
        const created = row?.createdAt ?? row?.created_at;
        return typeof created === 'string' ? created : null;
      };
      if (createdOf(itemAt(0)) === null) return null;
      const keys = Array.from({ length: total }, (_, index) => {
        const item = itemAt(index) as { id?: unknown } | undefined;
        return { created: createdOf(item) ?? '', id: typeof item?.id === 'string' ? item.id : '' };
      });
      const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      return keys.map((_, index) => index).sort((a, b) => compare(keys[a]!.created, keys[b]!.created) || compare(keys[a]!.id, keys[b]!.id) || a - b);
    };

    // One snapshot per list request: BEGIN, the snapshot at the first SELECT, count(*) and the page from it.
    const lists = new Set(
      [
        '/api/v1/workspaces',
        '/api/v1/governance_models',
        '/api/v1/records',
        profile.paths.taxonomies,
        profile.paths.fields,
        profile.paths.picklists,
        profile.paths.apiKeyList,
        profile.paths.submissionList,
      ].filter((path): path is string => typeof path === 'string'),
    );
    app.addHook('preHandler', async (req) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || !lists.has(req.routeOptions.url ?? '') || !req.account) return;
      await sleep(BEGIN_MS);
      req.account = snapshotOf(req.account);
      await sleep(STATEMENTS_MS);
    });
  },
});
