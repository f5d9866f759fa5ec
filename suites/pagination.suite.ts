import { BESIDE, check, type CheckContext, type CollectionName, COLLECTION_NAMES } from '../src/kit.js';
import fc from 'fast-check';
import { LIMIT_MAX, LIMIT_MIN, limitParam } from './arbitraries/limitParam.js';
import { pageParam } from './arbitraries/pageParam.js';
import { nonInteger } from './arbitraries/nonInteger.js';
import { describePage, ensureRejected, envelope, itemsOnPage, requestOf, sendValue, type PageParam } from './support/page-judge.js';
import { describeValue, exactReading, firstPage, paginationOfList } from './support/list-pagination.js';

// PAG: pagination (API document, Pagination envelope; Pagination parameters), on every list the
// document and the profile offer but the API keys, walked alone before any suite writes
// (suites/key-pagination.suite.ts). This suite runs before any suite of its lane writes submissions
// (src/check/suite-order.ts), and the lane beside it writes none (on a conformant target), so every
// walk here sees still collections.

/** The lists walked here: all but the API keys, which the lane beside this one creates and deletes. */
const STILL = COLLECTION_NAMES.filter((name) => name !== 'apiKeys');

// ---------------------------------------------------------------------------------------------
// Properties, on the largest collection offered: there a misread number shows as a different page.

/** The offered collection with the most items at preflight (records, on most targets). */
function largest(t: CheckContext): { name: CollectionName; list: string; idField: string | null; total: number } {
  const offered = STILL.filter((name) => t.lists.endpoint(name).list);
  const totalOf = (name: CollectionName) => t.run.preflight.collections[name]?.total ?? 0;
  const name = offered.reduce((best, next) => (totalOf(next) > totalOf(best) ? next : best), 'records' as CollectionName);
  const { list, idField } = t.lists.endpoint(name);
  return { name, list: list!, idField, total: totalOf(name) };
}

check(
  'PAG-3',
  'property: a plain integer page is served up to the last page and is 422 naming page below 1',
  async (t) => {
    const { list, total } = largest(t);
    // limit=1 makes every page differ, so the last page is the item count.
    const lastPage = Math.max(1, total);
    await t.property(pageParam({ lastPage, spelling: 'canonical' }), async (value) => {
      const page = value.readings[0]!;
      const res = await sendValue(t, list, 'page', value, { limit: '1' });
      if (page < 1n) return ensureRejected(t, res, 'page', 'page starts at 1');
      const body = envelope(t, res, `a page (${describeValue('page', value)})`);
      // One item on every page up to the count the preflight saw (limit=1).
      const expected = itemsOnPage(total, page, 1n);
      t.ensure(body.items.length === expected, () => `${requestOf(res)} holds ${body.items.length} items; expected ${expected}`, res);
    });
  },
  { key: 'page-property', values: ['boundary'], ...BESIDE },
);

check(
  'PAG-4',
  'property: a plain integer limit is served from 1 to 10000 and is 422 naming limit outside',
  async (t) => {
    const { list } = largest(t);
    await t.property(limitParam({ spelling: 'canonical' }), async (value) => {
      const limit = value.readings[0]!;
      const res = await sendValue(t, list, 'limit', value, { page: '1' });
      if (limit < LIMIT_MIN || limit > LIMIT_MAX) return ensureRejected(t, res, 'limit', 'limit is 1 to 10000');
      const body = envelope(t, res, `a page (${describeValue('limit', value)})`);
      const expected = itemsOnPage(body.total_count, 1n, limit);
      t.ensure(
        body.items.length === expected,
        () => `${requestOf(res)} holds ${body.items.length} items; limit ${limit} with total_count ${body.total_count} gives ${expected}`,
        res,
      );
    });
  },
  { key: 'limit-property', values: ['boundary', 'huge'], ...BESIDE },
);

check(
  'PAG-5',
  'property: a page or limit that is no integer at all is 422 naming it, never 5xx',
  async (t) => {
    const { list } = largest(t);
    const param = fc.constantFrom<PageParam>('page', 'limit');
    await t.property(fc.tuple(param, nonInteger()), async ([name, value]) => {
      const res = await sendValue(t, list, name, value);
      ensureRejected(t, res, name, `${value.form}, not an integer`);
    });
  },
  { key: 'non-integer-property', values: ['unicode'], ...BESIDE },
);

check(
  'PAG-10',
  'property: unusual spellings are refused naming the parameter or read as exactly the number spelled',
  async (t) => {
    const { list, idField, total } = largest(t);
    const judge = exactReading(t, list, idField);
    const values = fc.oneof(
      pageParam({ lastPage: Math.max(1, total), spelling: 'unusual' }).map((value) => ['page', value] as const),
      limitParam({ spelling: 'unusual' }).map((value) => ['limit', value] as const),
    );
    await t.property(values, async ([param, value]) => judge(param, value));
  },
  { key: 'unusual-spellings-property', values: ['empty', 'boundary', 'huge'], ...BESIDE },
);

// Each list's checks come after the properties, the suite's longest chains (a hundred requests
// each, one after another): the properties start first and the short checks fill the places
// beside them, rather than the properties starting last and running on alone.
for (const name of STILL) paginationOfList(name);

// ---------------------------------------------------------------------------------------------
// The empty collection (PAG-7): page 1, no items, has_more false, total_count 0.

check(
  'PAG-7',
  'an empty list is one page with no items and has_more false',
  async (t) => {
    for (const name of STILL) {
      const list = t.lists.endpoint(name).list;
      if (!list) continue;
      const total = t.run.preflight.collections[name]?.total;
      if (total !== 0) continue;
      return judgeEmpty(t, list, {});
    }
    // Else an empty result of a filter the profile declares: submissions of one workspace, of one
    // taxonomy, or of both at once (filters combine, SUB-4), which is emptier still.
    const submissions = t.lists.endpoint('submissions').list;
    if (submissions) {
      for (const filter of emptyCandidates(t).slice(0, EMPTY_TRIES)) {
        const { page } = await firstPage(t, submissions, { ...filter, limit: 1 });
        if (page.total_count === 0) return judgeEmpty(t, submissions, filter);
      }
    }
    t.skip('every list offered holds items and no declared filter gives an empty result');
  },
  { key: 'empty-list', values: ['empty'], ...BESIDE },
);

/**
 * Filters of the submission list that may match nothing: each workspace of the first page alone,
 * then a workspace and a taxonomy together, then each taxonomy alone. Seeds often fill their first
 * workspaces (the blind Go implementation's submissions are in four of its five, the blind FastAPI
 * one's in all four), and a pair is emptier than either of its halves.
 */
const EMPTY_TRIES = 10;

function emptyCandidates(t: CheckContext): Record<string, string>[] {
  const filters = t.profile.submissions.listFilters;
  const workspaces = filters?.workspace ? (t.run.preflight.collections.workspaces?.ids ?? []).slice(0, 6) : [];
  const taxonomies = filters?.taxonomy ? (t.run.preflight.collections.taxonomies?.ids ?? []).slice(0, 3) : [];
  const byWorkspace = workspaces.map((id) => ({ [filters!.workspace!]: id }));
  const byTaxonomy = taxonomies.map((id) => ({ [filters!.taxonomy!]: id }));
  return [...byWorkspace, ...byWorkspace.slice(0, 3).flatMap((w) => byTaxonomy.map((x) => ({ ...w, ...x }))), ...byTaxonomy];
}

async function judgeEmpty(t: CheckContext, list: string, filter: Record<string, string>): Promise<void> {
  for (const query of [filter, { ...filter, page: 1, limit: 1 }]) {
    const { res, page } = await firstPage(t, list, query);
    if (page.total_count !== 0) t.skip(`${requestOf(res)} is no longer empty (total_count ${page.total_count})`);
    t.ensure(
      page.items.length === 0 && page.has_more === false,
      () => `${requestOf(res)}, an empty list, gives ${describePage(page, null)}; expected no items and has_more false`,
      res,
    );
  }
}
