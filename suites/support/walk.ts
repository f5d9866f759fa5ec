import { type HttpResponse, type Exchange, schemaErrors } from '../../src/kit-judging.js';
import { IdSet } from './id-set.js';

/** The clauses a walk judges (API document, Pagination envelope and parameters). */
export type WalkClause = 'PAG-1' | 'PAG-6' | 'PAG-7' | 'PAG-8';

export interface WalkProblem {
  readonly reason: string;
  /** The exchange that shows it; pages themselves are never kept. */
  readonly evidence: Exchange;
}

export interface WalkOptions {
  readonly limit: number;
  /** Member holding an item's id; null when the profile names none (ids are then not tracked). */
  readonly idField: string | null;
  /** Most requests the walk may make; a longer walk covers the first pages and the last page. */
  readonly budget: number;
  /** Ids of an earlier complete walk of the same collection, to compare with. */
  readonly known?: { readonly limit: number; readonly ids: IdSet } | null;
}

export interface WalkResult {
  readonly limit: number;
  /** Why the walk cannot be judged (the collection changed, page 1 refused); null when it can. */
  readonly unjudged: string | null;
  readonly total: number;
  /** ceil(total_count / limit), and 1 for an empty collection. */
  readonly expectedPages: number;
  /** Every page was fetched, not only the first ones and the last. */
  readonly complete: boolean;
  readonly requests: number;
  /** Ids of a complete walk, for later walks to compare with; null otherwise. */
  readonly ids: IdSet | null;
  /** The first problem found for each clause. */
  readonly problems: Partial<Record<WalkClause, WalkProblem>>;
}

/** Fetches one page; the walk never keeps the response beyond judging it. */
export type PageFetcher = (page: number, limit: number) => Promise<HttpResponse>;

interface Page {
  readonly items: unknown[];
  readonly has_more: boolean;
  readonly total_count: number;
}

/**
 * How many requests one walk may spend: five seconds of the target's rate (profile limits). The
 * embedded reference and the kill matrix allow 100 requests a second, so 500: every collection of
 * the reference is walked completely even at limit 1. The document's 100 a minute gives 8: pages 1
 * to 7 and the last page, about five seconds of its budget per walk instead of hours for a large
 * collection at limit 1. Never fewer than 6 requests, so that a bounded walk still crosses pages.
 */
export function walkBudget(limits: { readonly perKeyPerMinute: number; readonly windowSeconds: number }): number {
  const WALK_SECONDS = 5;
  const MIN_REQUESTS = 6;
  return Math.max(MIN_REQUESTS, Math.floor((limits.perKeyPerMinute / limits.windowSeconds) * WALK_SECONDS));
}

/**
 * Walks a collection page by page the way the document says a client reads everything (increase
 * page by 1, stop when has_more is false) and judges each page as it arrives: has_more (PAG-6),
 * counts and total (PAG-7), full pages and each id once (PAG-8). Ids are kept in one compact set
 * for the walk; pages are dropped as soon as they are judged, so memory grows with the number of ids only.
 *
 * The page that total_count says follows is asked for while the walk still waits for the one
 * before: the target serves one page while the walk reads, parses and judges the one before. The
 * target sees the same requests in the same order; a page asked for that the walk then does not
 * need (has_more said false early, a page failed) is dropped unjudged.
 */
export async function walk(fetch: PageFetcher, options: WalkOptions): Promise<WalkResult> {
  const { limit, idField, budget } = options;
  const problems: Partial<Record<WalkClause, WalkProblem>> = {};
  const note = (clause: WalkClause, reason: string, res: HttpResponse) => {
    problems[clause] ??= { reason, evidence: res.exchange };
  };
  let requests = 0;
  const get = async (page: number) => {
    requests++;
    return fetch(page, limit);
  };
  const unjudged = (reason: string, total = 0, expectedPages = 1): WalkResult => ({
    limit,
    unjudged: reason,
    total,
    expectedPages,
    complete: false,
    requests,
    ids: null,
    problems,
  });

  const first = await get(1);
  const firstPage = envelopeOf(first);
  if (first.status !== 200) return unjudged(`page 1 at limit ${limit} answered ${first.status}: the limit itself is judged by PAG-4`);
  if (typeof firstPage === 'string') {
    note('PAG-1', `page 1 at limit ${limit} is not the pagination envelope: ${firstPage}`, first);
    return unjudged(`page 1 at limit ${limit} is not the pagination envelope (PAG-1)`);
  }
  const total = firstPage.total_count;
  const expectedPages = Math.max(1, Math.ceil(total / limit));
  const complete = expectedPages + 1 <= budget;
  // A bounded walk: the first pages the budget allows, then the last page.
  const plan = complete ? null : [...Array.from({ length: Math.max(1, budget - 1) }, (_, i) => i + 1), expectedPages];

  const seen = new IdSet();
  let itemsSeen = 0;
  let pagesWalked = 0;
  let res = first;
  let page: Page = firstPage;
  let pageNumber = 1;
  /** The first page of the walk that held fewer items than the limit. */
  let short: { readonly page: number; readonly items: number; readonly res: HttpResponse } | null = null;
  /** Asks for the page expected after page `current`, the walk's step `step`. */
  const askAhead = (step: number, current: number): { readonly page: number; readonly res: Promise<HttpResponse> } | null => {
    const expected = plan ? plan[step + 1] : current < expectedPages ? current + 1 : undefined;
    if (expected === undefined) return null;
    const pending = get(expected);
    // Dropped unawaited when not needed: its failure is not the walk's.
    pending.catch(() => undefined);
    return { page: expected, res: pending };
  };
  // The page after the one in hand (or awaited), asked for already, and which page it is.
  let ahead = askAhead(0, 1);
  for (let step = 0; ; step++) {
    pagesWalked++;
    itemsSeen += page.items.length;
    if (page.total_count !== total) {
      // Another client may have changed the collection: ask page 1 again before blaming the target.
      const again = envelopeOf(await get(1));
      if (typeof again !== 'string' && again.total_count !== total) {
        return unjudged(
          `total_count changed from ${total} to ${again.total_count} during the walk at limit ${limit}: the collection is not still`,
          total,
          expectedPages,
        );
      }
      note('PAG-7', `total_count is ${page.total_count} on page ${pageNumber} but ${total} on page 1 (limit ${limit}) of an unchanged collection`, res);
    }
    const expectedMore = pageNumber < expectedPages;
    if (page.has_more !== expectedMore) {
      note('PAG-6', `has_more is ${page.has_more} on page ${pageNumber} of ${expectedPages} (total_count ${total}, limit ${limit})`, res);
    }
    const expectedItems = pageNumber < expectedPages ? limit : pageNumber === expectedPages ? total - (expectedPages - 1) * limit : 0;
    if (page.items.length !== expectedItems) {
      if (pageNumber < expectedPages)
        note('PAG-8', `page ${pageNumber} of ${expectedPages} holds ${page.items.length} items, not the full ${limit} (total_count ${total})`, res);
      else
        note(
          'PAG-7',
          `the last page ${pageNumber} holds ${page.items.length} items where total_count ${total} and limit ${limit} leave ${Math.max(0, expectedItems)}`,
          res,
        );
    }
    // A page short of the limit with items after it is not the last page, whichever page total_count
    // calls the last: a target that serves fewer than asked (a page size cut at 100) and goes on.
    if (short && page.items.length > 0)
      note(
        'PAG-8',
        `page ${short.page} holds ${short.items} items, not the full ${limit}, yet page ${pageNumber} holds ${page.items.length} more (total_count ${total})`,
        short.res,
      );
    if (page.items.length < limit) short ??= { page: pageNumber, items: page.items.length, res };
    if (idField) trackIds(page.items, idField, seen, options.known ?? null, pageNumber, limit, res, note);

    const next = plan ? plan[step + 1] : page.has_more && pageNumber <= expectedPages ? pageNumber + 1 : undefined;
    if (next === undefined) break;
    const arriving = ahead?.page === next ? ahead.res : get(next);
    ahead = askAhead(step + 1, next);
    res = await arriving;
    pageNumber = next;
    if (res.status !== 200) {
      note('PAG-7', `page ${pageNumber} of ${expectedPages} at limit ${limit} answered ${res.status}: the walk cannot reach every item`, res);
      return { limit, unjudged: null, total, expectedPages, complete: false, requests, ids: null, problems };
    }
    const parsed = envelopeOf(res);
    if (typeof parsed === 'string') {
      note('PAG-1', `page ${pageNumber} at limit ${limit} is not the pagination envelope: ${parsed}`, res);
      return unjudged(`page ${pageNumber} at limit ${limit} is not the pagination envelope (PAG-1)`, total, expectedPages);
    }
    page = parsed;
  }

  if (complete) {
    if (page.has_more)
      note('PAG-7', `has_more is still true on page ${pageNumber}, past the ceil(${total}/${limit}) = ${expectedPages} pages total_count gives`, res);
    else if (pagesWalked !== expectedPages)
      note('PAG-7', `the walk at limit ${limit} ended after ${pagesWalked} pages; total_count ${total} gives ceil(${total}/${limit}) = ${expectedPages}`, res);
    if (itemsSeen !== total) note('PAG-7', `the walk at limit ${limit} yielded ${itemsSeen} items; total_count says ${total}`, res);
    const known = options.known;
    if (idField && known && !problems['PAG-8']) {
      for (const id of known.ids) {
        if (!seen.has(id)) {
          note('PAG-8', `id ${id} is seen in the walk at limit ${known.limit} but never in the walk at limit ${limit}`, res);
          break;
        }
      }
    }
  }
  // A bounded walk ends on the last page total_count gives: has_more true there says the document's
  // walk, which goes on until has_more is false, takes more pages than ceil(total_count/limit).
  if (!complete && pageNumber === expectedPages && page.has_more)
    note(
      'PAG-7',
      `has_more is true on page ${pageNumber}, the last of the ceil(${total}/${limit}) = ${expectedPages} pages total_count gives: a walk until has_more is false takes more`,
      res,
    );
  return { limit, unjudged: null, total, expectedPages, complete, requests, ids: complete && idField ? seen : null, problems };
}

function trackIds(
  items: readonly unknown[],
  idField: string,
  seen: IdSet,
  known: WalkOptions['known'] | null,
  pageNumber: number,
  limit: number,
  res: HttpResponse,
  note: (clause: WalkClause, reason: string, res: HttpResponse) => void,
): void {
  for (const item of items) {
    const id = (item as Record<string, unknown> | null)?.[idField];
    if (typeof id !== 'string') continue;
    if (!seen.add(id)) note('PAG-8', `id ${id} appears again on page ${pageNumber} at limit ${limit}: the walk sees it twice`, res);
    if (known && !known.ids.has(id))
      note('PAG-8', `id ${id} on page ${pageNumber} at limit ${limit} is not among the ${known.ids.size} ids of the walk at limit ${known.limit}`, res);
  }
}

/** The envelope of a 200, or one line saying why the body is not one. */
function envelopeOf(res: HttpResponse): Page | string {
  const response = res.exchange.response;
  if (response?.json !== 'ok') return `the body is not JSON${response?.jsonProblem ? `: ${response.jsonProblem}` : ''}`;
  const problems = schemaErrors('envelope', res.json);
  return problems.length === 0 ? (res.json as Page) : problems.join('; ');
}
