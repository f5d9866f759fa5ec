import type { ClauseId } from '../../src/kit.js';

/**
 * Queries a list refuses from a live key (PAG-3, PAG-5: 422 naming the parameter), carried in turn
 * by the requests of a failed credential to a list: no key, a malformed header, a key spelled
 * otherwise. Authentication comes first on every endpoint (AUTH-1, AUTH-2, AUTH-3), so each is
 * still 401: a handler that validates its query before it looks the key up answers a 422 to a key
 * it never checked. Data, not code: each entry rides on a probe the run sends anyway, at no request
 * more, turned by the seed, so that every run meets each of them; docs/coverage.md lists them.
 */
export interface RefusedQuery {
  /** How the report names it: `page 0`. */
  readonly name: string;
  readonly query: Readonly<Record<string, string>>;
  /** The clauses a request carrying it feeds. */
  readonly clauses: readonly ClauseId[];
  /** Clauses it cannot reach, each with the reason. */
  readonly unreached: Readonly<Partial<Record<ClauseId, string>>>;
}

const FEEDS: readonly ClauseId[] = ['AUTH-1', 'AUTH-2', 'AUTH-3'];

export const REFUSED_QUERIES: readonly RefusedQuery[] = [
  { name: 'no query', query: {}, clauses: FEEDS, unreached: {} },
  { name: 'page 0', query: { page: '0' }, clauses: FEEDS, unreached: {} },
  { name: 'a limit that is no number', query: { limit: 'ten' }, clauses: FEEDS, unreached: {} },
];

/** The entry the `index`th probe of a kind carries, turned by the run's seed. */
export function refusedQueryAt(index: number, seed: number): RefusedQuery {
  return REFUSED_QUERIES[(index + seed) % REFUSED_QUERIES.length]!;
}

/** `, with page 0`, or nothing for no query (or none carried): what a probe's label adds. */
export function describeRefusedQuery(entry: RefusedQuery | null): string {
  return entry === null || Object.keys(entry.query).length === 0 ? '' : `, with ${entry.name}`;
}
