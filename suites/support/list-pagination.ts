import { BESIDE, check, type CheckContext, type HttpResponse, type RunContext, collections, type CollectionName, type Envelope } from '../../src/kit.js';
import { LIMIT_DEFAULT } from '../arbitraries/limitParam.js';
import { PAGE_OFFSETS } from '../catalogues/page-offsets.js';
import type { QueryValue } from '../arbitraries/queryValue.js';
import { describePage, ensureRejected, envelope, requestOf, samePage, sendValue, signature, type PageParam } from './page-judge.js';
import type { WalkClause, WalkResult } from './walk.js';
import { judgeWalks, walkAtLimits } from './walks.js';

// PAG's checks of one list (API document, Pagination envelope; Pagination parameters): declared by
// suites/pagination.suite.ts for every list the run does not write to while it runs, and by
// suites/key-pagination.suite.ts for the API keys, walked alone before any suite writes.

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

/** What a list waits for before its checks read it (the key list: `key-list-settled.ts`); once for all its checks. */
export type Settle = (t: CheckContext) => Promise<void>;

/** `limit=5` as a value of the raw query, for the tables below. */
const spelled = (raw: string | string[], reading: bigint, form: string): QueryValue => ({ raw: [raw].flat(), spelling: 'unusual', readings: [reading], form });
/** 2, spelled in as many digits as 2^53 + 1. */
const LONG_TWO = '2'.padStart(16, '0');

export async function firstPage(
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

function walksOf(t: CheckContext, name: CollectionName, settle: Settle): Promise<WalkResult[]> {
  const { list, idField } = t.lists.endpoint(name);
  return t.once(`walks of ${name}`, async () => {
    await settledOnce(t, name, settle);
    return walkAtLimits(t, list!, idField, WALK_LIMITS);
  });
}

/** Fails on the first problem a walk found for `clause`; skips when no walk could be judged. */
async function judgeWalksOf(t: CheckContext, name: CollectionName, clause: WalkClause, settle: Settle): Promise<void> {
  judgeWalks(t, await walksOf(t, name, settle), clause);
}

/** Waits for the list to settle (`Settle`), once: the first check to ask waits for it, and the others with it. */
function settledOnce(t: CheckContext, name: CollectionName, settle: Settle): Promise<void> {
  return t.once(`${name} settled`, () => settle(t));
}

/** The list's path, once the list settled. */
async function settledList(t: CheckContext, name: CollectionName, settle: Settle): Promise<string> {
  await settledOnce(t, name, settle);
  return listOf(t, name);
}

const SETTLED: Settle = async () => undefined;

/**
 * Declares PAG's checks of one list: the envelope, the defaults, the bounds, the walks, past the
 * end, unusual spellings; each reads the list once `settle` let it.
 */
export function paginationOfList(name: CollectionName, settle: Settle = SETTLED): void {
  const label = LABELS[name];
  const applies = offers(name);

  check(
    'PAG-1',
    `every ${label} list response is the pagination envelope`,
    async (t) => {
      // Begun here, first: the walks' requests (and the wait for the list to settle) count as this
      // check's in the estimates, whichever of the checks beside it that judge them asks for them
      // first. Marked handled now, awaited below.
      const walks = walksOf(t, name, settle);
      walks.catch(() => undefined);
      const list = await settledList(t, name, settle);
      for (const query of [{}, { limit: 1 }] as Record<string, number>[]) await firstPage(t, list, query, 'PAG-1');
      // Whether these are served at all is PAG-4's and PAG-9's to judge; when served, the envelope.
      for (const query of [{ limit: 10_000 }, { page: 2, limit: 1 }, { page: 1_000_000 }]) {
        const res = await t.http.get(list, { query });
        if (res.status === 200) envelope(t, res, 'a page of the list', 'PAG-1');
      }
      judgeWalks(t, await walks, 'PAG-1');
    },
    { key: `envelope-${name}`, values: ['boundary'], applies, ...BESIDE },
  );

  check(
    'PAG-2',
    `${label}: no page means page 1 and no limit means 100`,
    async (t) => {
      const list = await settledList(t, name, settle);
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
    { key: `defaults-${name}`, values: ['absent'], applies, ...BESIDE },
  );

  check(
    'PAG-3',
    `${label}: page 1 is served and pages 0 and -1 are 422 naming page`,
    async (t) => {
      const list = await settledList(t, name, settle);
      for (const page of [0, -1]) ensureRejected(t, await t.http.get(list, { query: { page } }), 'page', 'page starts at 1');
      await firstPage(t, list, { page: 1 });
    },
    { key: `page-bounds-${name}`, values: ['boundary'], applies, ...BESIDE },
  );

  check(
    'PAG-4',
    `${label}: limits 1, 100 and 10000 are served and 0, -1 and 10001 are 422 naming limit`,
    async (t) => {
      const list = await settledList(t, name, settle);
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
    { key: `limit-bounds-${name}`, values: ['boundary', 'huge'], applies, ...BESIDE },
  );

  check(
    'PAG-5',
    `${label}: a page or limit that is text or a fraction is 422 naming it`,
    async (t) => {
      const list = await settledList(t, name, settle);
      for (const [param, raw] of [
        ['page', 'abc'],
        ['page', '1.5'],
        ['limit', 'ten'],
        ['limit', '2.5'],
      ] as const) {
        ensureRejected(t, await t.http.get(list, { query: { [param]: raw } }), param, 'not an integer');
      }
    },
    { key: `non-integer-${name}`, applies, ...BESIDE },
  );

  for (const clause of ['PAG-6', 'PAG-7', 'PAG-8'] as const) {
    const what = {
      'PAG-6': 'has_more is exact on every page',
      'PAG-7': 'total_count items arrive in ceil(total_count/limit) pages',
      'PAG-8': 'each id once and every page but the last full',
    }[clause];
    check(clause, `${label}: ${what} of walks at limits ${WALK_LIMITS.join(', ')}`, (t) => judgeWalksOf(t, name, clause, settle), {
      key: `walks-${name}`,
      judges: ['PAG-1'],
      values: ['boundary'],
      applies,
      ...BESIDE,
    });
  }

  check(
    'PAG-9',
    `${label}: a page past the end is empty with the same total, or 422 naming page`,
    async (t) => {
      const list = await settledList(t, name, settle);
      const { page: first } = await firstPage(t, list, { limit: 100 });
      const total = first.total_count;
      const probes: { page: bigint | number; limit: bigint | number; what?: string }[] = [
        { page: Math.max(1, Math.ceil(total / 100)) + 1, limit: 100 },
        { page: total + 1, limit: 1 },
        { page: 1_000_000, limit: 10 },
        // Pages whose offset crosses an integer boundary (suites/catalogues/page-offsets.ts), every run.
        ...PAGE_OFFSETS.map((entry) => ({ page: entry.page, limit: entry.limit, what: entry.name })),
      ];
      for (const { page, limit, what } of probes) {
        const res = await t.http.get(list, { query: { page: String(page), limit: String(limit) } });
        const why = what ? `a page past the end (${what})` : 'a page past the end';
        if (res.status === 422) {
          ensureRejected(t, res, 'page', why);
          continue;
        }
        const body = envelope(t, res, `200 with no items, or 422 naming page, to ${why}`);
        t.ensure(
          body.items.length === 0 && !body.has_more && body.total_count === total,
          () => `${requestOf(res)}, ${why} of ${total} items, gives ${describePage(body, null)}; expected no items, has_more false and total_count ${total}`,
          res,
        );
      }
    },
    { key: `past-the-end-${name}`, values: ['boundary'], applies, ...BESIDE },
  );

  check(
    'PAG-10',
    `${label}: unusual spellings of page and limit are refused or read as the number they spell`,
    async (t) => {
      const list = await settledList(t, name, settle);
      const { idField } = t.lists.endpoint(name);
      const judge = exactReading(t, list, idField);
      const limits = [
        spelled('', LIMIT_DEFAULT, 'empty'),
        // Leading zeros, as many as make the digits of 2^53 + 1: what reads the spelling's length,
        // not the number (a card-number scrubber of 13 to 19 digits, a length guard), reads another
        // value than the parser, as does what strips or refuses leading zeros.
        spelled(LONG_TWO, 2n, 'leading zeros, sixteen digits'),
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
        spelled(LONG_TWO, 2n, 'leading zeros, sixteen digits'),
        spelled('+2', 2n, 'plus sign'),
        spelled('2e0', 2n, 'exponent'),
        spelled('0x2', 2n, 'hex'),
        spelled(['2', '2'], 2n, 'repeated parameter'),
      ];
      for (const value of pages) await judge('page', value);
    },
    { key: `unusual-spellings-${name}`, values: ['empty', 'boundary', 'huge'], applies, ...BESIDE },
  );
}

export const describeValue = (param: PageParam, value: QueryValue) =>
  `${param} ${value.form} ${JSON.stringify(value.raw.length === 1 ? value.raw[0] : value.raw)}`;

/**
 * PAG-10's judge: an unusual spelling is either 422 naming the parameter, or the very page the
 * canonical spelling of one of its readings gives (the same ids, total and has_more). Page
 * spellings are sent with limit=1 so that every page differs from its neighbours, which holds
 * only where the list keeps one order: where it does not, the counts are compared.
 */
export function exactReading(t: CheckContext, list: string, idField: string | null): (param: PageParam, value: QueryValue) => Promise<void> {
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
    // A front end that refused the spelling in its own words (lighttpd's HTML 400 for a tab) before
    // the API saw it: the API read nothing, so nothing of its reading is judged (docs/judging.md).
    if (res.exchange.frontEndFragile && res.exchange.response?.json !== 'ok') return;
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
