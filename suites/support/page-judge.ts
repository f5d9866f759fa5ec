import { type CheckContext, type HttpResponse, describeRequest, schemaErrors, idsOf, type Envelope } from '../../src/kit.js';
import { rawQueryOf, type QueryValue } from '../arbitraries/queryValue.js';

export type PageParam = 'page' | 'limit';

/** `[GET] "url"`, to start a reason with the request that shows it. */
export function requestOf(res: HttpResponse): string {
  return describeRequest(res.exchange);
}

/** GETs a list with `param` spelled as generated and the other parameter given plainly. */
export function sendValue(
  t: CheckContext,
  path: string,
  param: PageParam,
  value: QueryValue,
  other: Readonly<Record<string, string>> = {},
): Promise<HttpResponse> {
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

/** Asks for each of two pages again, at most, before deciding they differ: see `samePage`. */
const RETRIES = 7;

/** The page of a response, or null when it is none. */
function pageOf(res: HttpResponse): Envelope | null {
  return res.status === 200 && res.exchange.response?.json === 'ok' ? (res.json as Envelope) : null;
}

/**
 * Whether two requests give the same page. The document fixes no order of items, so a partial
 * page of a list whose order does not hold from one request to the next (a sort that ties, say)
 * may hold other items each time, and for the whole list or just a few items near the edge.
 * Pages with different counts differ. Pages with the same counts but other items are asked for
 * again, each up to seven times: the same items coming back on both sides make them the same
 * page; either side changing its items shows an order that does not hold, and then only the
 * counts tell; both sides keeping their own items every time (a chance of 1 in 16,000 for a single
 * pair of tied items at the edge) make them different pages.
 */
export async function samePage(
  a: { res: HttpResponse; again: () => Promise<HttpResponse> },
  b: { res: HttpResponse; again: () => Promise<HttpResponse> },
  idField: string | null,
): Promise<boolean> {
  const first = [pageOf(a.res), pageOf(b.res)];
  if (!first[0] || !first[1]) return false;
  if (signature(first[0], idField) === signature(first[1], idField)) return true;
  if (signature(first[0], idField, false) !== signature(first[1], idField, false) || !idField) return false;
  const seen = [new Set([signature(first[0], idField)]), new Set([signature(first[1], idField)])];
  for (let i = 0; i < RETRIES; i++) {
    for (const [side, again] of [a.again, b.again].entries()) {
      const page = pageOf(await again());
      if (!page) return false;
      if (signature(page, idField, false) !== signature(first[side]!, idField, false)) return false;
      seen[side]!.add(signature(page, idField));
      if ([...seen[side]!].some((s) => seen[1 - side]!.has(s))) return true;
    }
    if (seen[0]!.size > 1 || seen[1]!.size > 1) return true;
  }
  return false;
}

/** One line describing a page, for reasons: `3 items (ids a, b, c), total_count 250, has_more true`. */
export function describePage(page: Envelope, idField: string | null): string {
  const ids = idField ? idsOf(page.items, idField) : [];
  const shown = ids.length > 3 ? `${ids.slice(0, 3).join(', ')}, …` : ids.join(', ');
  return `${page.items.length} items${shown ? ` (ids ${shown})` : ''}, total_count ${page.total_count}, has_more ${page.has_more}`;
}
