/** Who a request speaks for; run-wide clauses filter on it. */
export type AuthKind =
  | 'main' // the configured key of the account under test
  | 'other' // the second account's key
  | 'created' // a key the run created
  | 'none' // no Authorization header
  | 'malformed' // a deliberately malformed Authorization header
  | 'invalid' // a well-formed key that is unknown or revoked
  | 'candidate'; // a value of a creation response tried as the new key (the key's member is not declared)

/**
 * Why a request produced no complete response of the API. Each is the target's or its
 * surroundings' doing, never the suite's; `front-end` is a 502/503/504 that stayed after the
 * retries (see `answeredBy`).
 */
export type TransportFailureKind = 'timeout' | 'connect_timeout' | 'reset' | 'refused' | 'too_large' | 'dns' | 'tls' | 'front-end' | 'other';

/**
 * Who gave a response: the API, or something in front of it (a load balancer, a gateway). The
 * document's error table has no 502, 503 or 504, and the reference and every variant never send
 * one, so such an answer, whatever its body (an HTML page, a JSON envelope a gateway copies), is
 * taken for a front end's: it is retried, never judged. A 500 `api_error` is the API's own.
 */
export type Responder = 'api' | 'front-end';

/** Statuses a front end gives for an upstream that is down, refused or slow (RFC 9110, 15.6.3-15.6.5). */
export const FRONT_END_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

export function responderOf(status: number): Responder {
  return FRONT_END_STATUSES.has(status) ? 'front-end' : 'api';
}

/** Why an exchange was sent again: an unplanned 429, a transport failure, or a front end's 502/503/504. */
export type RetryCause = '429' | 'transport' | 'front-end';

export interface Exchange {
  /** Order in the run's log, assigned by the broker. */
  seq?: number;
  /** The check (test name) that made the request, when one did. */
  check?: string | undefined;
  startedAt: string;
  durationMs: number;
  auth: AuthKind;
  /** The pacing bucket the request counted against. */
  bucket: string;
  /**
   * Sent with a key of the run's pool instead of the configured key (`auth` stays 'main': a pool
   * key acts as its account). Such a key only this run holds, so its budget is spent by this log alone.
   */
  pooled?: boolean;
  /** True when the check meant to exceed a rate limit (the 429 is planned). */
  planned429?: boolean;
  /**
   * Malformed at the HTTP level (a NUL byte or an invalid percent-encoding in the URL): a front
   * end (nginx, a load balancer) commonly answers it itself, before the API sees it. Its answer
   * is judged for robustness only (GEN-3), never for the API's envelope, content type or headers.
   */
  frontEndFragile?: boolean;
  /** The request bypassed pacing (a rate-limit check sending on purpose). */
  unpaced?: boolean;
  /**
   * Another request of this process with the same credential was in flight at some moment of this
   * one's life, so the target may have handled them in either order (RATE-8 compares only requests without).
   */
  overlapped?: boolean;
  /** The request changes data on the target (POST/PUT/PATCH/DELETE). */
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body?: string;
    /** In a report's evidence: the size of the whole body (UTF-8 bytes) where `body` was cut. */
    bytes?: number;
    truncated?: boolean;
  };
  response?: {
    status: number;
    headers: Record<string, string>;
    body: string;
    /** Size of the whole body; `body` may be cut short for the log. */
    bytes: number;
    truncated: boolean;
    /** Whether the body parsed as JSON: 'empty' for no body at all. */
    json: 'ok' | 'invalid' | 'empty';
    /** Why a body that looks like JSON is not, where the parse alone cannot say: not UTF-8, at which byte. */
    jsonProblem?: string;
  };
  /** Who answered (see `Responder`); absent when no response arrived. */
  answeredBy?: Responder;
  failure?: { kind: TransportFailureKind; message: string };
  /** Indices of revealed secrets this response contained (filled in by the broker: KEY-4). */
  leaks?: number[];
  /** For each of `leaks`, in order, the longest run of its secret's part the response held: how likely chance put it there (`secrets/chance.ts`). */
  leakRuns?: number[];
  /** The `seq` of the attempt this one sends again (an environment event, not a finding). */
  retryOf?: number;
  /** Why it was sent again: set with `retryOf`. */
  retryCause?: RetryCause;
}

/**
 * Whether the API itself answered: a response a front end did not give. Findings on clauses and
 * the rate-limit counts are made from these only. (A log of an earlier version, without
 * `answeredBy`, counts every response.)
 */
export function fromApi(exchange: Pick<Exchange, 'response' | 'answeredBy'>): boolean {
  return exchange.response !== undefined && exchange.answeredBy !== 'front-end';
}

/**
 * A request whose credential the target refused, or one the run sent knowing it would be: what a
 * target may count against the per-IP budget besides requests without a key (RATE-7). A revoked
 * key the run created is one too, whatever its `auth` says.
 */
export function failedCredential(exchange: Pick<Exchange, 'auth' | 'response'>): boolean {
  return knownToFail(exchange.auth) || (exchange.auth !== 'none' && exchange.response?.status === 401);
}

/** A credential the run sends knowing it fails: a malformed header, an unknown or revoked key. */
export function knownToFail(auth: AuthKind): boolean {
  return auth === 'malformed' || auth === 'invalid';
}

/** When the exchange ended, on the run's clock (ms since the epoch): its answer read whole, or its failure. */
export function endedAt(exchange: Pick<Exchange, 'startedAt' | 'durationMs'>): number {
  return Date.parse(exchange.startedAt) + exchange.durationMs;
}

export function describeRequest(exchange: Pick<Exchange, 'request'>): string {
  return `[${exchange.request.method}] "${exchange.request.url}"`;
}

/** Whether the exchange created a resource at `path`: a POST to it (under any base path) answered 2xx. */
export function createdAt(exchange: Pick<Exchange, 'request' | 'response'>, path: string): boolean {
  const status = exchange.response?.status;
  if (exchange.request.method !== 'POST' || status === undefined || status < 200 || status >= 300) return false;
  return new URL(exchange.request.url).pathname.endsWith(path);
}
