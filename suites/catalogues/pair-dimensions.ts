import type { ClauseId } from '../../src/kit.js';
import type { Row } from '../pairs/covering-array.js';

/**
 * What the run varies, crossed: every pair of values of every two dimensions meets in at least one
 * request of every run (suites/pairs.suite.ts), where each dimension alone is varied elsewhere.
 * Faults live where two meet: a condition answered before authentication (a credential state × a
 * request header), a retrieval that forgets the account (an operation × the other account), a
 * reference inside a body looked up without the account (a body's reference × the other account),
 * an empty collection (a field × its empty value). Data, not code: a value is one word here, its
 * request is built in the suite, and docs/coverage.md lists the pairs. A read is asked by GET or
 * HEAD: a HEAD answered by another path than its GET (a credential state × the method).
 */
// '—': the value of a dimension the operation has no use for.
export const PAIR_DIMENSIONS = {
  // An unknown path under /api/v1/ is a read too: its 404 is the API's, in JSON (GEN-1, ERR-1 over
  // the whole run), whatever the request asks for, where a catch-all page of a framework may answer.
  operation: ['list a collection', 'retrieve an item', 'list the keys', 'retrieve a key', 'an unknown path', 'create a submission'],
  credential: ['the main key', "the other account's key", 'no key', 'a malformed header', 'an unknown key'],
  // How a read is asked: HTTP gives HEAD the meaning of GET without the body (RFC 9110, 9.3.2), and a
  // gateway or framework may answer it by a path of its own (a health check's rule, a HEAD route made
  // from the GET's) that forgets what the GET checks.
  method: ['GET', 'HEAD', '—'],
  // The request headers of HTTP that change an answer (suites/catalogues/request-headers.ts), on
  // reads, and what curl and a browser's fetch send unless told otherwise (`PAIR_HEADERS`).
  header: ['none', 'Accept: */*', 'If-None-Match: *', 'Range: bytes=0-9', 'Accept: application/xml', '—'],
  // Of the object the path names: a retrieval's item or key.
  owner: ["the actor's own", "another account's", '—'],
  // Of the objects a submission's body and query name.
  workspace: ["the actor's own", "another account's", '—'],
  taxonomy: ["the actor's own", "another account's", '—'],
  rows: ['one', 'empty', '—'],
} as const;

export type PairDimensions = typeof PAIR_DIMENSIONS;

/**
 * Headers of the pairs that are no entry of the catalogue: they change nothing HTTP defines (any
 * form is acceptable), so that the explorer does not send them to every list, but a framework's
 * catch-all may read them as a browser's and answer a page.
 */
export const PAIR_HEADERS: Readonly<Record<string, Readonly<Record<string, string>>>> = { 'Accept: */*': { accept: '*/*' } };

/**
 * The clauses each dimension's requests feed, besides every run-wide judge (which sees every answer
 * of the pairs): docs/coverage.md lists them with the catalogues.
 */
export const PAIR_FEEDS: Readonly<Record<keyof PairDimensions, readonly ClauseId[]>> = {
  operation: ['GEN-3', 'AUTH-6', 'GEN-1', 'ERR-1'],
  credential: ['AUTH-1', 'AUTH-2', 'AUTH-3'],
  method: ['AUTH-1', 'AUTH-2', 'AUTH-3', 'AUTH-6'],
  header: ['GEN-1', 'AUTH-1', 'AUTH-2', 'AUTH-3'],
  owner: ['AUTH-6'],
  workspace: ['AUTH-6'],
  taxonomy: ['AUTH-6'],
  rows: ['GEN-3'],
};
export type PairRow = Row<PairDimensions>;

const READS = new Set<string>(['list a collection', 'retrieve an item', 'list the keys', 'retrieve a key', 'an unknown path']);
const RETRIEVALS = new Set<string>(['retrieve an item', 'retrieve a key']);
const LIVE = new Set<string>(['the main key', "the other account's key"]);
const OWN = "the actor's own";

/**
 * The pairs a row's answer shows: a failed credential is refused before anything else of the
 * request is looked at, so that its row shows the pairs of the credential (with the operation,
 * the method, the header) and no other: a header met on an operation only in a row without a live
 * key has not met it (a catch-all page for an unknown path, behind the key's refusal, stays unseen).
 * On an unknown path it shows less still: a router may answer its 404 before any credential is
 * looked at, so that the row shows the path met the credential, and nothing of the credential
 * with the method or the header (HEAD with an unknown key, met only there, hid in the 404 from
 * AUTH-3: a key served on HEAD went unseen).
 */
export function shownPairs(row: PairRow, pairs: readonly string[]): readonly string[] {
  if (LIVE.has(row.credential)) return pairs;
  const credential = pairs.filter((pair) => pair.includes('credential='));
  return row.operation === 'an unknown path' ? credential.filter((pair) => pair.includes('operation=')) : credential;
}

/**
 * What a row spends: the configured key's budget is the scarcest (it carries the run's own
 * requests and every deletion, and a narrow selection has no pool), so that where a row on another
 * key covers as many pairs, that row is taken.
 */
export function pairCost(row: PairRow): number {
  return row.credential === 'the main key' ? 1 : 0;
}

/**
 * The rows that mean something: each dimension where the operation uses it, and only where no
 * earlier refusal hides what the row is about. Another account's object is named by a live key
 * only (a failed credential is refused before any object is looked at); an empty `rows` goes with
 * the main key and its own workspace and taxonomy (else a refusal of those hides it; a target may
 * create it, and the other account's data is written only where AUTH-6 must); a live key's valid
 * submission with rows is left to SUB-1, which creates it within the run's cap.
 */
export function meaningful(row: PairRow): boolean {
  const read = READS.has(row.operation);
  const submit = row.operation === 'create a submission';
  if ((row.header === '—') !== !read || (row.method === '—') !== !read) return false;
  // HEAD goes without a header of the catalogue: each header meets each credential on a GET, whose
  // answer its entry is judged by (a HEAD has no body), and HEAD meets each credential and operation.
  if (row.method === 'HEAD' && row.header !== 'none') return false;
  // HEAD means GET without the body where the document gives a GET: it shows none of a single key
  // (its path is for deletion), so a HEAD there is answered 405 by the API itself, and the pair of
  // HEAD and a credential that met only there would hide in the 405.
  if (row.method === 'HEAD' && row.operation === 'retrieve a key') return false;
  // A wildcard Accept meets a failed credential where it is no key at all (a browser's request with
  // no credential, answered a login page): a key refused the same way costs another request of the
  // budget per IP address, which a target may spend on failed credentials too (RATE-7), and which
  // the pairs' refused rows fill to its 20 a minute.
  if (row.header === 'Accept: */*' && (row.credential === 'a malformed header' || row.credential === 'an unknown key')) return false;
  if ((row.owner === '—') !== !RETRIEVALS.has(row.operation)) return false;
  if ((row.workspace === '—') !== !submit || (row.taxonomy === '—') !== !submit || (row.rows === '—') !== !submit) return false;
  const live = LIVE.has(row.credential);
  // An unknown path's 404 may come before any credential is looked at (a router's), so that a
  // refused credential there shows only that the two met (`shownPairs`): with no key, a browser's
  // request, whose answer a catch-all page may be; a key refused the same way adds nothing but a
  // request of the budget per IP address.
  if (!live && row.operation === 'an unknown path' && row.credential !== 'no key') return false;
  if (!live && [row.owner, row.workspace, row.taxonomy].includes("another account's")) return false;
  const ownBody = row.workspace === OWN && row.taxonomy === OWN;
  // With the main key alone: the other account's data is written only where AUTH-6 must.
  if (row.rows === 'empty' && !(row.credential === 'the main key' && ownBody)) return false;
  if (row.rows === 'one' && live && ownBody) return false;
  return true;
}

/** A value the run cannot send, and why: the coverage report names it with every pair it leaves out. */
export interface LeftOut {
  readonly dimension: keyof PairDimensions;
  readonly value: string;
  readonly why: string;
}
