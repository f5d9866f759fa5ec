import type { ClauseId } from '../../src/kit.js';

/**
 * Request headers HTTP defines that change what a server answers (RFC 9110: content negotiation,
 * conditional requests, ranges; method overrides and forwarding headers that frameworks honour),
 * sent on every list and retrieval the run knows. The document fixes the answer's form whatever
 * the request asks for: "Responses are always JSON" (What the service does, 4), so the run-wide
 * judges hold every answer to GEN-1, GEN-3, ERR-1 and ERR-2 as to any other. Data, not code: an
 * entry is one line, and the explorer (suites/explorer.suite.ts) sends each to a list and a
 * retrieval every run, and to every one where the run has a key pool (suites/explorer/header-cover.ts);
 * docs/coverage.md lists them.
 */
export interface HeaderEntry {
  /** How the report names it. */
  readonly name: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The clauses its answers feed. */
  readonly clauses: readonly ClauseId[];
  /** Clauses it cannot reach, each with the reason. */
  readonly unreached: Readonly<Partial<Record<ClauseId, string>>>;
  /**
   * The answers HTTP gives the request besides the representation (statuses of
   * src/http/http-answers.ts's table): each is judged by HTTP's rules and what the API still owes
   * in it, never as a JSON body. A test holds each entry to the table: an entry HTTP gives a
   * meaning is sent only once the table has its answers.
   */
  readonly httpAnswers: readonly number[];
  /** A faulty target could take it for a write: left out of a read-only run. @default false */
  readonly writes?: boolean;
  /**
   * The same header naming a second other address, where the entry names a client address: RATE-7
   * sends both without a key right after its burst met the 429, then the same request without
   * either. A target that counts the per-IP budget by an address the client names serves both; a
   * budget that refills (a token bucket) gives back one request now and then, never two at once.
   */
  readonly secondAddress?: Readonly<Record<string, string>>;
}

/** Judged over every answer, whatever the request asked for. */
const EVERY_ANSWER: readonly ClauseId[] = ['GEN-1', 'GEN-3', 'GEN-5', 'ERR-1', 'ERR-2'];

/** A header naming a client address feeds RATE-7 too: sent without a key once the per-IP budget is spent. */
const ADDRESSED: readonly ClauseId[] = [...EVERY_ANSWER, 'RATE-7'];

export const REQUEST_HEADERS: readonly HeaderEntry[] = [
  { name: 'Accept: application/xml', httpAnswers: [406], headers: { accept: 'application/xml' }, clauses: EVERY_ANSWER, unreached: {} },
  { name: 'Accept: text/html', httpAnswers: [406], headers: { accept: 'text/html' }, clauses: EVERY_ANSWER, unreached: {} },
  {
    name: 'Accept: application/xml, application/json;q=0.1',
    headers: { accept: 'application/xml, application/json;q=0.1' },
    // JSON is acceptable (q=0.1): the representation it has is the answer HTTP asks for.
    httpAnswers: [],
    clauses: EVERY_ANSWER,
    unreached: {},
  },
  { name: 'Accept-Charset: iso-8859-1', httpAnswers: [406], headers: { 'accept-charset': 'iso-8859-1' }, clauses: EVERY_ANSWER, unreached: {} },
  {
    // A 304 has no content (RFC 9110, 15.4.5): a framework's ETag support may answer it.
    name: 'If-None-Match: *',
    headers: { 'if-none-match': '*' },
    httpAnswers: [304],
    clauses: EVERY_ANSWER,
    unreached: {},
  },
  { name: 'Range: bytes=0-9', httpAnswers: [206, 416], headers: { range: 'bytes=0-9' }, clauses: EVERY_ANSWER, unreached: {} },
  {
    name: 'X-HTTP-Method-Override: DELETE',
    httpAnswers: [],
    headers: { 'x-http-method-override': 'DELETE' },
    clauses: EVERY_ANSWER,
    unreached: {},
    writes: true,
  },
  // Each names another client address; a target behind no proxy, or one that appends, still counts the sender's.
  {
    name: 'X-Forwarded-For: another address',
    headers: { 'x-forwarded-for': '203.0.113.7' },
    secondAddress: { 'x-forwarded-for': '203.0.113.70' },
    httpAnswers: [],
    clauses: ADDRESSED,
    unreached: {},
  },
  {
    name: 'X-Real-IP: another address',
    headers: { 'x-real-ip': '203.0.113.8' },
    secondAddress: { 'x-real-ip': '203.0.113.80' },
    httpAnswers: [],
    clauses: ADDRESSED,
    unreached: {},
  },
  {
    name: 'Forwarded: for another address',
    headers: { forwarded: 'for=203.0.113.9' },
    secondAddress: { forwarded: 'for=203.0.113.90' },
    httpAnswers: [],
    clauses: ADDRESSED,
    unreached: {},
  },
];

/** The entries that name another client address (RATE-7 sends them past its ceiling). */
export const CLIENT_ADDRESS_HEADERS = REQUEST_HEADERS.filter((entry) => entry.secondAddress !== undefined);
