import type { CheckContext } from '../../src/check/context.js';
import type { HttpResponse } from '../../src/http/client.js';
import { describeRequest } from '../../src/http/exchange.js';
import { schemaErrors } from '../../src/schemas.js';
import { rawQueryOf, type QueryValue } from '../arbitraries/queryValue.js';
import { idsOf, type Envelope } from './lists.js';

export type PageParam = 'page' | 'limit';

/** `[GET] "url"`, to start a reason with the request that shows it. */
export function requestOf(res: HttpResponse): string {
  return describeRequest(res.exchange);
}

/** GETs a list with `param` spelled as generated and the other parameter given plainly. */
export function sendValue(t: CheckContext, path: string, param: PageParam, value: QueryValue, other: Readonly<Record<string, string>> = {}): Promise<HttpResponse> {
  const rest = Object.entries(other).map(([name, raw]) => `${name}=${encodeURIComponent(raw)}`);
  return t.http.get(path, { rawQuery: [rawQueryOf(param, value), ...rest].join('&') });
}

/**
 * The envelope of a 200 list response. A status other than 200 is a finding of the calling
 * check's clause; a 200 that is not the envelope is PAG-1's finding (`judge: 'PAG-1'`), and leaves
 * any other clause's check skipped rather than failed twice for one fault.
 */
export function envelope(t: CheckContext, res: HttpResponse, expected: string, judge: 'PAG-1' | 'other' = 'other'): Envelope {
  t.ensure(res.status === 200, () => `${requestOf(res)} answered ${res.status}; expected ${expected}`, res);
  const body = t.json(res);
  const problems = schemaErrors('envelope', body);
  if (problems.length === 0) return body as Envelope;
  const reason = `${requestOf(res)}: the list response is not the pagination envelope: ${problems.join('; ')}`;
  if (judge === 'PAG-1') t.fail(reason, res);
  return t.skip(`${reason} (PAG-1 judges it)`);
}

/** A 422 invalid_request_error whose param names `param`, or a finding. */
export function ensureRejected(t: CheckContext, res: HttpResponse, param: PageParam, why: string): void {
  const expected = `422 invalid_request_error naming ${param} (${why})`;
  t.ensure(res.status === 422, () => `${requestOf(res)} answered ${res.status}; expected ${expected}`, res);
  const error = (t.json(res) as { error?: { type?: unknown; param?: unknown } } | null)?.error;
  t.ensure(error?.type === 'invalid_request_error', () => `${requestOf(res)} answered 422 with type ${JSON.stringify(error?.type)}; expected ${expected}`, res);
  t.ensure(error?.param === param, () => `${requestOf(res)} answered 422 with param ${JSON.stringify(error?.param)}; expected ${expected}`, res);
}

/** Items a page must hold: `limit` until the items run out. */
export function itemsOnPage(total: number, page: bigint, limit: bigint): number {
  const start = (page - 1n) * limit;
  if (start >= BigInt(total)) return 0;
  return Number(BigInt(total) - start < limit ? BigInt(total) - start : limit);
}

/**
 * What a page shows, to tell two readings apart: its ids (or the count), total and has_more. The
 * document fixes no order of items, so the ids are compared as a set; with `contents: false`
 * (pages of a list whose order does not hold from one request to the next) only the counts.
 */
export function signature(page: Envelope, idField: string | null, contents = true): string {
  const items = idField && contents ? [...idsOf(page.items, idField)].sort().join(',') : `${page.items.length} items`;
  return `${page.total_count}|${page.has_more}|${items}`;
}

/** Whether a page holds only part of its list, so that which part depends on the list's order. */
export function isPartial(page: Envelope): boolean {
  return Array.isArray(page.items) && typeof page.total_count === 'number' && page.items.length < page.total_count;
}

/** The chance a list without a stable order serves one partial page again by luck, at most. */
const LUCK = 1e-4;

/**
 * Whether a partial page comes back with the same items when asked again. A target whose lists
 * have no stable order (the document fixes none; PAG-8 asks for a walk to see each item once)
 * serves another slice each time, and then comparing two partial pages proves nothing. The page
 * is asked for again until a list in random order would have repeated it by luck less than once
 * in 10,000 times: twice for one item of 250, nine times for one item of three.
 */
export async function repeatable(fetch: () => Promise<HttpResponse>, first: Envelope, idField: string | null): Promise<boolean> {
  if (!idField || !isPartial(first)) return true;
  const slices = combinations(first.total_count, first.items.length);
  const times = Math.min(16, Math.max(2, Math.ceil(Math.log(1 / LUCK) / Math.log(slices))));
  const expected = signature(first, idField);
  for (let i = 0; i < times; i++) {
    const again = await fetch();
    if (again.status !== 200 || again.exchange.response?.json !== 'ok') return false;
    if (signature(again.json as Envelope, idField) !== expected) return false;
  }
  return true;
}

/** n choose k, as a float (large lists give astronomically many slices: any large number will do). */
function combinations(n: number, k: number): number {
  let result = 1;
  for (let i = 0; i < Math.min(k, n - k); i++) result = (result * (n - i)) / (i + 1);
  return Math.max(2, Math.min(result, 1e12));
}

/** One line describing a page, for reasons: `3 items (ids a, b, c), total_count 250, has_more true`. */
export function describePage(page: Envelope, idField: string | null): string {
  const ids = idField ? idsOf(page.items, idField) : [];
  const shown = ids.length > 3 ? `${ids.slice(0, 3).join(', ')}, …` : ids.join(', ');
  return `${page.items.length} items${shown ? ` (ids ${shown})` : ''}, total_count ${page.total_count}, has_more ${page.has_more}`;
}
