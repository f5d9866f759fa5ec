import { check, type CheckContext, type HttpResponse, type RunContext, collections, COLLECTION_NAMES, type CollectionName, type Envelope } from '../src/kit.js';
import fc from 'fast-check';
import { LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN, limitParam } from './arbitraries/limitParam.js';
import { pageParam } from './arbitraries/pageParam.js';
import { nonInteger } from './arbitraries/nonInteger.js';
import type { QueryValue } from './arbitraries/queryValue.js';
import { describePage, ensureRejected, envelope, itemsOnPage, requestOf, samePage, sendValue, signature, type PageParam } from './support/page-judge.js';
import type { WalkClause, WalkResult } from './support/walk.js';
import { judgeWalks, walkAtLimits } from './support/walks.js';

// PAG: pagination (API document, Pagination envelope; Pagination parameters), on every list the
// document and the profile offer. This suite runs before any suite writes (src/run/suite-order.ts):
// api_keys and submissions change only later, so every walk here sees still collections.

const LABELS: Record<CollectionName, string> = {
  workspaces: 'workspaces',
  governanceModels: 'governance models',
  records: 'records',
  taxonomies: 'taxonomies',
  fields: 'fields',
  picklists: 'picklists',
  submissions: 'submissions',
  apiKeys: 'API keys',
};

/** The maximum, the default, a prime that leaves a short last page, and 1 (every page is a boundary). */
const WALK_LIMITS = [10_000, 100, 7, 1] as const;

const offers = (name: CollectionName) => (run: RunContext) =>
  collections(run.profile)[name].list ? true : `the profile declares no list path for ${LABELS[name]}`;

const listOf = (t: CheckContext, name: CollectionName) => t.lists.endpoint(name).list!;

/** `limit=5` as a value of the raw query, for the tables below. */
const spelled = (raw: string | string[], reading: bigint, form: string): QueryValue => ({ raw: [raw].flat(), spelling: 'unusual', readings: [reading], form });

async function firstPage(
  t: CheckContext,
  path: string,
  query: Record<string, string | number> = {},
  judge: 'PAG-1' | 'other' = 'other',
): Promise<{ res: HttpResponse; page: Envelope }> {
  const res = await t.http.get(path, { query });
  return { res, page: envelope(t, res, 'a page of the list', judge) };
}

// ---------------------------------------------------------------------------------------------
// Walks, shared by PAG-1 and PAG-6/7/8: each collection is walked once per limit and the results
// (problems and counts, never pages) kept for the checks of every clause.

function walksOf(t: CheckContext, name: CollectionName): Promise<WalkResult[]> {
  const { list, idField } = t.lists.endpoint(name);
  return t.once(`walks of ${name}`, () => walkAtLimits(t, list!, idField, WALK_LIMITS));
}

/** Fails on the first problem a walk found for `clause`; skips when no walk could be judged. */
async function judgeWalksOf(t: CheckContext, name: CollectionName, clause: WalkClause): Promise<void> {
  judgeWalks(t, await walksOf(t, name), clause);
}

for (const name of COLLECTION_NAMES) {
  const label = LABELS[name];
  const applies = offers(name);

  check(
    'PAG-1',
    `every ${label} list response is the pagination envelope`,
    async (t) => {
      const list = listOf(t, name);
      for (const query of [{}, { limit: 1 }] as Record<string, number>[]) await firstPage(t, list, query, 'PAG-1');
      // Whether these are served at all is PAG-4's and PAG-9's to judge; when served, the envelope.
      for (const query of [{ limit: 10_000 }, { page: 2, limit: 1 }, { page: 1_000_000 }]) {
        const res = await t.http.get(list, { query });
        if (res.status === 200) envelope(t, res, 'a page of the list', 'PAG-1');
      }
      await judgeWalksOf(t, name, 'PAG-1');
    },
    { key: `envelope-${name}`, values: ['boundary'], applies },
  );

  check(
    'PAG-2',
    `${label}: no page means page 1 and no limit means 100`,
    async (t) => {
      const list = listOf(t, name);
      const { idField } = t.lists.endpoint(name);
      const pairs: [Record<string, number>, Record<string, number>][] = [
        [{}, { page: 1, limit: 100 }],
        [{ limit: 1 }, { page: 1, limit: 1 }],
      ];
      // Page 2 without limit only while it is inside the collection: past the end is PAG-9's.
      const total = t.run.preflight.collections[name]?.total ?? 0;
      if (total > 100) pairs.push([{ page: 2 }, { page: 2, limit: 100 }]);
      for (const [implicit, explicit] of pairs) {
        const a = await firstPage(t, list, implicit);
        const b = await firstPage(t, list, explicit);
        const same = await samePage(
          { res: a.res, again: () => t.http.get(list, { query: implicit }) },
          { res: b.res, again: () => t.http.get(list, { query: explicit }) },
          idField,
        );
        t.ensure(
          same,
          () => `${requestOf(a.res)} gives ${describePage(a.page, idField)} but ${requestOf(b.res)} gives ${describePage(b.page, idField)}`,
          a.res,
          b.res,
        );
      }
      const { res, page } = await firstPage(t, list);
      const expected = Math.min(100, page.total_count);
      t.ensure(
        page.items.length === expected,
        () => `${requestOf(res)} holds ${page.items.length} items; with total_count ${page.total_count} the default limit of 100 gives ${expected}`,
        res,
      );
    },
    { key: `defaults-${name}`, values: ['absent'], applies },
  );

  check(
    'PAG-3',
    `${label}: page 1 is served and pages 0 and -1 are 422 naming page`,
    async (t) => {
      const list = listOf(t, name);
      for (const page of [0, -1]) ensureRejected(t, await t.http.get(list, { query: { page } }), 'page', 'page starts at 1');
      await firstPage(t, list, { page: 1 });
    },
    { key: `page-bounds-${name}`, values: ['boundary'], applies },
  );

  check(
    'PAG-4',
    `${label}: limits 1, 100 and 10000 are served and 0, -1 and 10001 are 422 naming limit`,
    async (t) => {
      const list = listOf(t, name);
      for (const limit of [0, -1, 10_001]) ensureRejected(t, await t.http.get(list, { query: { limit } }), 'limit', 'limit is 1 to 10000');
      for (const limit of [1, 100, 10_000]) {
        const { res, page } = await firstPage(t, list, { limit });
        const expected = Math.min(limit, page.total_count);
        t.ensure(
          page.items.length === expected,
          () => `${requestOf(res)} holds ${page.items.length} items; limit ${limit} with total_count ${page.total_count} gives ${expected}`,
          res,
        );
      }
    },
    { key: `limit-bounds-${name}`, values: ['boundary', 'huge'], applies },
  );

  check(
    'PAG-5',
    `${label}: a page or limit that is text or a fraction is 422 naming it`,
    async (t) => {
      const list = listOf(t, name);
      for (const [param, raw] of [
        ['page', 'abc'],
        ['page', '1.5'],
        ['limit', 'ten'],
        ['limit', '2.5'],
      ] as const) {
        ensureRejected(t, await t.http.get(list, { query: { [param]: raw } }), param, 'not an integer');
      }
    },
    { key: `non-integer-${name}`, applies },
  );

  for (const clause of ['PAG-6', 'PAG-7', 'PAG-8'] as const) {
    const what = {
      'PAG-6': 'has_more is exact on every page',
      'PAG-7': 'total_count items arrive in ceil(total_count/limit) pages',
      'PAG-8': 'each id once and every page but the last full',
    }[clause];
    check(clause, `${label}: ${what} of walks at limits ${WALK_LIMITS.join(', ')}`, (t) => judgeWalksOf(t, name, clause), {
      key: `walks-${name}`,
      judges: ['PAG-1'],
      values: ['boundary'],
      applies,
    });
  }

  check(
    'PAG-9',
    `${label}: a page past the end is empty with the same total, or 422 naming page`,
    async (t) => {
      const list = listOf(t, name);
      const { page: first } = await firstPage(t, list, { limit: 100 });
      const total = first.total_count;
      const probes: [number, number][] = [
        [Math.max(1, Math.ceil(total / 100)) + 1, 100],
        [total + 1, 1],
        [1_000_000, 10],
      ];
      for (const [page, limit] of probes) {
        const res = await t.http.get(list, { query: { page, limit } });
        if (res.status === 422) {
          ensureRejected(t, res, 'page', 'a page past the end');
          continue;
        }
        const body = envelope(t, res, '200 with no items, or 422 naming page');
        t.ensure(
          body.items.length === 0 && !body.has_more && body.total_count === total,
          () =>
            `${requestOf(res)}, past the end of ${total} items, gives ${describePage(body, null)}; expected no items, has_more false and total_count ${total}`,
          res,
        );
      }
    },
    { key: `past-the-end-${name}`, values: ['boundary'], applies },
  );

  check(
    'PAG-10',
    `${label}: unusual spellings of page and limit are refused or read as the number they spell`,
    async (t) => {
      const list = listOf(t, name);
      const { idField } = t.lists.endpoint(name);
      const judge = exactReading(t, list, idField);
      const limits = [
        spelled('', LIMIT_DEFAULT, 'empty'),
        spelled('02', 2n, 'leading zero'),
        spelled('+2', 2n, 'plus sign'),
        spelled(' 2', 2n, 'whitespace'),
        spelled('2e0', 2n, 'exponent'),
        spelled('1e1', 10n, 'exponent'),
        spelled('0x2', 2n, 'hex'),
        spelled(['2', '2'], 2n, 'repeated parameter'),
      ];
      for (const value of limits) await judge('limit', value);
      const pages = [
        spelled('', 1n, 'empty'),
        spelled('02', 2n, 'leading zero'),
        spelled('+2', 2n, 'plus sign'),
        spelled('2e0', 2n, 'exponent'),
        spelled('0x2', 2n, 'hex'),
        spelled(['2', '2'], 2n, 'repeated parameter'),
      ];
      for (const value of pages) await judge('page', value);
    },
    { key: `unusual-spellings-${name}`, values: ['empty', 'boundary', 'huge'], applies },
  );
}

// ---------------------------------------------------------------------------------------------
// Properties, on the largest collection offered: there a misread number shows as a different page.

/** The offered collection with the most items at preflight (records, on most targets). */
function largest(t: CheckContext): { name: CollectionName; list: string; idField: string | null; total: number } {
  const offered = COLLECTION_NAMES.filter((name) => t.lists.endpoint(name).list);
  const totalOf = (name: CollectionName) => t.run.preflight.collections[name]?.total ?? 0;
  const name = offered.reduce((best, next) => (totalOf(next) > totalOf(best) ? next : best), 'records' as CollectionName);
  const { list, idField } = t.lists.endpoint(name);
  return { name, list: list!, idField, total: totalOf(name) };
}

const describeValue = (param: PageParam, value: QueryValue) => `${param} ${value.form} ${JSON.stringify(value.raw.length === 1 ? value.raw[0] : value.raw)}`;

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
  { key: 'page-property', values: ['boundary'] },
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
  { key: 'limit-property', values: ['boundary', 'huge'] },
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
  { key: 'non-integer-property', values: ['unicode'] },
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
  { key: 'unusual-spellings-property', values: ['empty', 'boundary', 'huge'] },
);

/**
 * PAG-10's judge: an unusual spelling is either 422 naming the parameter, or the very page the
 * canonical spelling of one of its readings gives (the same ids, total and has_more). Page
 * spellings are sent with limit=1 so that every page differs from its neighbours, which holds
 * only where the list keeps one order: where it does not, the counts are compared.
 */
function exactReading(t: CheckContext, list: string, idField: string | null): (param: PageParam, value: QueryValue) => Promise<void> {
  const canonical = new Map<string, Promise<{ res: HttpResponse; signature: string }>>();
  const other = (param: PageParam): Record<string, string> => (param === 'page' ? { limit: '1' } : { page: '1' });
  // A non-200 answer has its status for signature: a spelling answered like its canonical form
  // (a 404 for a page past the end, say) was read exactly, and PAG-9 judges the 404 itself.
  const signatureOf = (res: HttpResponse) =>
    res.status === 200 && res.exchange.response?.json === 'ok' ? signature(res.json as Envelope, idField) : `status ${res.status}`;
  const canonicalOf = (param: PageParam, reading: bigint) => {
    const key = `${param}=${reading}`;
    let found = canonical.get(key);
    if (!found) {
      found = t.http.get(list, { query: { [param]: reading.toString(), ...other(param) } }).then((res) => ({ res, signature: signatureOf(res) }));
      canonical.set(key, found);
    }
    return found;
  };
  const describe = (res: HttpResponse) =>
    res.status === 200 && res.exchange.response?.json === 'ok' ? describePage(res.json as Envelope, idField) : `${res.status}`;
  return async (param, value) => {
    const res = await sendValue(t, list, param, value, other(param));
    const what = describeValue(param, value);
    t.ensure(res.status < 500, () => `${requestOf(res)} (${what}) answered ${res.status}; expected 422 naming ${param} or the page it spells`, res);
    if (res.status === 422) return ensureRejected(t, res, param, what);
    if (res.status === 200) envelope(t, res, `422 naming ${param}, or the page it spells (${what})`);
    const mine = signatureOf(res);
    const readings: { reading: bigint; res: HttpResponse }[] = [];
    for (const reading of value.readings) {
      const found = await canonicalOf(param, reading);
      if (found.signature === mine) return;
      // Two slices of a list whose order does not hold may differ by chance (see samePage).
      const spelled = { res, again: () => sendValue(t, list, param, value, other(param)) };
      const plain = { res: found.res, again: () => t.http.get(list, { query: { [param]: reading.toString(), ...other(param) } }) };
      if (await samePage(spelled, plain, idField)) return;
      readings.push({ reading, res: found.res });
    }
    const expected = readings.map((r) => `${param}=${r.reading} gives ${describe(r.res)}`).join('; ');
    t.fail(`${requestOf(res)} (${what}) gives ${describe(res)}: not what the number it spells gives (${expected})`, res, ...readings.map((r) => r.res));
  };
}

// ---------------------------------------------------------------------------------------------
// The empty collection (PAG-7): page 1, no items, has_more false, total_count 0.

check(
  'PAG-7',
  'an empty list is one page with no items and has_more false',
  async (t) => {
    for (const name of COLLECTION_NAMES) {
      const list = t.lists.endpoint(name).list;
      if (!list) continue;
      const total = t.run.preflight.collections[name]?.total;
      if (total !== 0) continue;
      return judgeEmpty(t, list, {});
    }
    // Else an empty result of a filter the profile declares: submissions of one workspace.
    const submissions = t.lists.endpoint('submissions').list;
    const filter = t.profile.submissions.listFilters?.workspace;
    const workspaces = t.run.preflight.collections.workspaces?.ids ?? [];
    if (submissions && filter) {
      for (const id of workspaces.slice(0, 4)) {
        const { page } = await firstPage(t, submissions, { [filter]: id, limit: 1 });
        if (page.total_count === 0) return judgeEmpty(t, submissions, { [filter]: id });
      }
    }
    t.skip('every list offered holds items and no declared filter gives an empty result');
  },
  { key: 'empty-list', values: ['empty'] },
);

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
