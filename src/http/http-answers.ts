import type { Exchange } from './exchange.js';

/**
 * The answers HTTP gives a request that asks for one of its meanings (RFC 9110): a range, a
 * condition, a representation negotiated. Such a request has more than one right answer besides
 * the representation itself, and a server or an intermediary may give any of them on its own
 * (Apache httpd serves byte ranges of a proxied response by default; a framework's ETag support
 * answers a condition). The document's "responses are always JSON" speaks of the API's
 * representations and errors; none of these answers is one, so each is judged by what HTTP asks of
 * it and what the API still owes in it, never as a JSON body. Data: docs/judging.md renders the
 * table, and a catalogue entry that sends one of these requests names the rows it meets.
 */
export interface HttpAnswerRule {
  /** How the report and docs/judging.md name it. */
  readonly name: string;
  readonly statuses: readonly number[];
  /** Where HTTP gives the answer. */
  readonly rfc: string;
  /** What in the request asks for it, in words. */
  readonly when: string;
  /** What the API still owes in this answer, in words. */
  readonly owes: string;
  /** Whether the request asks for this answer's meaning. */
  readonly asks: (request: RequestOf) => boolean;
  /** Where the answer breaks what HTTP asks of it, why; null where it is HTTP's answer. */
  readonly problem: (response: ResponseOf) => string | null;
}

type RequestOf = Pick<Exchange['request'], 'method' | 'headers'> & { readonly url?: string };
type ResponseOf = Pick<NonNullable<Exchange['response']>, 'status' | 'headers' | 'body' | 'bytes'>;

const REDIRECTS = [301, 302, 307, 308] as const;

// A prepared request's header names are lower case (src/http/request.ts), as the catalogue's are.
const header = (request: RequestOf, name: string): string | undefined => request.headers[name];
const safe = (request: RequestOf) => request.method === 'GET' || request.method === 'HEAD';
const rangeAsked = (request: RequestOf) => request.method === 'GET' && /^\s*bytes\s*=/i.test(header(request, 'range') ?? '');

/**
 * What a 206 to one byte range owes (RFC 9110, 14.4 and 15.3.7): a `Content-Range` naming the
 * bytes it carries, as many as the body holds, and those bytes are a slice of the representation:
 * where the slice starts at the first byte of content that is not encoded, it starts as JSON does.
 */
function partialProblem(response: ResponseOf): string | null {
  const contentRange = response.headers['content-range'];
  if (contentRange === undefined) return 'a 206 without Content-Range is no range of the representation';
  const match = /^\s*bytes\s+(\d+)-(\d+)\/(\d+|\*)\s*$/i.exec(contentRange);
  if (!match) return `a 206 whose Content-Range "${contentRange}" names no byte range`;
  const [first, last, complete] = [Number(match[1]), Number(match[2]), match[3] === '*' ? null : Number(match[3])];
  if (last < first || (complete !== null && last >= complete)) return `a 206 whose Content-Range "${contentRange}" is not a range of its own length`;
  if (response.bytes !== last - first + 1)
    return `a 206 whose Content-Range "${contentRange}" names ${last - first + 1} bytes, and whose body holds ${response.bytes}`;
  const encoded = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase() !== 'identity';
  if (first === 0 && !encoded && !/^[\s]*[[{"\-0-9tfn]/.test(response.body))
    return `a 206 of the first bytes of a JSON representation starts ${JSON.stringify(response.body.slice(0, 10))}, as no JSON text does`;
  return null;
}

/**
 * A path that is not in its normal form (RFC 3986, 6.2.2: dot-segments, an empty segment, a
 * trailing slash): servers and frameworks answer it with a redirect to the normal form (Go's
 * ServeMux for `//` and `/../`, Starlette's redirect_slashes for a trailing slash).
 */
function unnormalPath(request: RequestOf): boolean {
  // The path as sent, before any parser normalizes it: what follows the authority, or a relative URL's.
  const raw = request.url === undefined ? '' : (/^[a-z]+:\/\/[^/]*(\/[^?#]*)/i.exec(request.url)?.[1] ?? request.url.split(/[?#]/)[0]!);
  return /\/\/|\/\.\.?(\/|$)/.test(raw) || (raw.length > 1 && raw.endsWith('/'));
}

/** Whether `value`, an Accept-style list, admits `wanted` (or a wildcard) with a quality above 0. */
function admits(value: string, wanted: readonly string[]): boolean {
  return value.split(',').some((part) => {
    const [name = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return wanted.includes(name) && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** A negotiation the API's one representation (JSON in UTF-8, RFC 8259) does not meet: RFC 9110, 12.5. */
function unmet(request: RequestOf): boolean {
  const accept = header(request, 'accept');
  const charset = header(request, 'accept-charset');
  return (
    (accept !== undefined && !admits(accept, ['application/json', 'application/*', '*/*'])) ||
    (charset !== undefined && !admits(charset, ['utf-8', '*'])) ||
    header(request, 'accept-language') !== undefined ||
    header(request, 'accept-encoding') !== undefined
  );
}

export const HTTP_ANSWERS: readonly HttpAnswerRule[] = [
  {
    name: 'a range of the representation',
    statuses: [206],
    rfc: 'RFC 9110, 14.2 and 15.3.7',
    when: 'GET with Range: bytes=…',
    owes: 'a Content-Range naming as many bytes as the body holds; bytes of the JSON representation (from the first byte: the start of a JSON text)',
    asks: rangeAsked,
    problem: partialProblem,
  },
  {
    name: 'a range not satisfiable',
    statuses: [416],
    rfc: 'RFC 9110, 15.5.17',
    when: 'GET with Range: bytes=…',
    owes: 'nothing of the representation; its body, which a front end may write, is not judged as the API’s',
    asks: rangeAsked,
    problem: () => null,
  },
  {
    name: 'not modified',
    statuses: [304],
    rfc: 'RFC 9110, 13.1.2, 13.1.3 and 15.4.5',
    when: 'GET or HEAD with If-None-Match or If-Modified-Since',
    owes: 'no content (a 304 has none, as a 204)',
    asks: (request) => safe(request) && (header(request, 'if-none-match') !== undefined || header(request, 'if-modified-since') !== undefined),
    problem: () => null,
  },
  {
    name: 'a precondition failed',
    statuses: [412],
    rfc: 'RFC 9110, 13.1 and 15.5.13',
    when: 'If-Match or If-Unmodified-Since, or If-None-Match on a method other than GET or HEAD',
    owes: 'nothing of the representation; its body, which a front end may write, is not judged as the API’s',
    asks: (request) =>
      header(request, 'if-match') !== undefined ||
      header(request, 'if-unmodified-since') !== undefined ||
      (!safe(request) && header(request, 'if-none-match') !== undefined),
    problem: () => null,
  },
  {
    name: 'not acceptable',
    statuses: [406],
    rfc: 'RFC 9110, 12.5 and 15.5.7',
    when: 'an Accept that admits no JSON, an Accept-Charset without UTF-8, an Accept-Language or Accept-Encoding',
    owes: 'nothing of the representation; its body, which a front end may write, is not judged as the API’s',
    asks: unmet,
    problem: () => null,
  },
  {
    name: 'the methods a resource serves',
    statuses: [200],
    rfc: 'RFC 9110, 9.3.7 and 10.2.1',
    when: 'OPTIONS',
    owes: 'what it serves, in an Allow header if any; its content, which HTTP does not define (Express answers "GET,HEAD" as text/html), is not judged as the API’s',
    asks: (request) => request.method === 'OPTIONS',
    problem: () => null,
  },
  {
    name: 'a redirect to the normal form of the path',
    statuses: [...REDIRECTS],
    rfc: 'RFC 3986, 6.2.2; RFC 9110, 15.4',
    when: 'a path with a dot-segment, an empty segment or a trailing slash',
    owes: 'a Location to follow (the suite never follows it); its content is not judged as the API’s',
    asks: unnormalPath,
    problem: (response) => (response.headers['location'] ? null : `a ${response.status} without Location redirects nowhere`),
  },
];

/** An exchange answered by one of HTTP's answers to what its request asked, and whether the answer keeps HTTP's rules. */
export interface HttpAnswer {
  readonly rule: HttpAnswerRule;
  /** Null where the answer is HTTP's; else why it is not (then it is judged as any answer of the API). */
  readonly problem: string | null;
}

/** The HTTP answer an exchange got, where its request asked for one and its status is that answer's; null otherwise. */
export function httpAnswerOf(exchange: Pick<Exchange, 'request' | 'response'>): HttpAnswer | null {
  const response = exchange.response;
  if (response === undefined) return null;
  const rule = HTTP_ANSWERS.find((r) => r.statuses.includes(response.status) && r.asks(exchange.request));
  return rule ? { rule, problem: rule.problem(response) } : null;
}

/** An answer HTTP allows the request, keeping HTTP's rules: not judged as one of the API's JSON bodies. */
export function isHttpAnswer(exchange: Pick<Exchange, 'request' | 'response'>): boolean {
  const answer = httpAnswerOf(exchange);
  return answer !== null && answer.problem === null;
}

/**
 * Whether an answer owes a JSON body ("responses are always JSON"): not one to HEAD, nor a 204 or
 * a 304, which have no content (RFC 9110, 15.3.5 and 15.4.5), nor HTTP's answer to what the request
 * asked, whoever gave it. GEN-1 and ERR-1 over the whole run, and the explorer's header check, judge these.
 */
export function owesJsonBody(exchange: Pick<Exchange, 'request' | 'response'>): boolean {
  const status = exchange.response?.status;
  return exchange.request.method !== 'HEAD' && status !== 204 && status !== 304 && !isHttpAnswer(exchange);
}
