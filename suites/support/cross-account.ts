import { idsOf, type CheckContext, type HttpResponse } from '../../src/kit.js';

// One list as each account's key sees it, and the item both are shown: what AUTH-6's list checks
// share, before the run writes (suites/auth.suite.ts) and after (suites/after-writes.suite.ts).

/** A list's first page as one account sees it, `query` besides; null when it is no list page (other clauses judge that). */
export async function listAs(
  t: CheckContext,
  path: string,
  auth: 'main' | 'other',
  query: Readonly<Record<string, string>> = {},
): Promise<{ res: HttpResponse; items: unknown[] } | null> {
  const res = await t.http.get(path, { auth, query: { ...query, limit: 100 } });
  const items = (res.json as { items?: unknown } | undefined)?.items;
  return res.status === 200 && Array.isArray(items) ? { res, items } : null;
}

/** The ids of a list's first page as one account sees it, by `idField`; none where there is no list. */
export async function idsAs(t: CheckContext, path: string | null, auth: 'main' | 'other', idField = 'id'): Promise<string[]> {
  return path ? idsOf((await listAs(t, path, auth))?.items ?? [], idField) : [];
}

/**
 * The id of an item both lists show with the same content: one resource shown to both accounts.
 * The same id alone is not enough: ids may be counted per account.
 */
export function sharedItem(mine: readonly unknown[], theirs: readonly unknown[], idField: string): string | null {
  const seen = new Map(mine.map((item) => [(item as Record<string, unknown>)?.[idField], JSON.stringify(item)]));
  const shared = theirs.find((item) => {
    const id = (item as Record<string, unknown>)?.[idField];
    return (typeof id === 'string' || typeof id === 'number') && seen.get(id) === JSON.stringify(item);
  });
  return shared === undefined ? null : String((shared as Record<string, unknown>)[idField]);
}
