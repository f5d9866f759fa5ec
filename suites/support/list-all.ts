import type { CheckContext, Envelope, HttpResponse } from '../../src/kit.js';

/** Pages of 100 read at most: a filtered list the run can count, not a whole collection. */
const MAX_PAGES = 5;

/**
 * Every item of a (filtered) list, following has_more for a few pages at most, with the first
 * page's envelope; `complete` says the last page read said no more follow and every page gave the
 * first page's total_count: a list another client wrote to between two pages cannot be counted.
 */
export async function listAll(
  t: CheckContext,
  path: string,
  query: Record<string, string>,
): Promise<{ res: HttpResponse; page: Envelope; items: unknown[]; complete: boolean }> {
  const first = await t.lists.fetchPage(path, { ...query, limit: 100 });
  const items = [...first.page.items];
  let page = 1;
  let last = first.page;
  let steady = true;
  while (last.has_more && page < MAX_PAGES) {
    page++;
    last = (await t.lists.fetchPage(path, { ...query, limit: 100, page })).page;
    items.push(...last.items);
    steady &&= last.total_count === first.page.total_count;
  }
  return { ...first, items, complete: !last.has_more && steady };
}
