import { createHash } from 'node:crypto';
import type { AuthKind, Exchange, RetryCause } from './exchange.js';

/** Who a request speaks for. */
export type Credential =
  | 'main'
  | 'other'
  | 'none'
  | { readonly key: string; readonly kind: 'created' | 'invalid' | 'candidate' }
  /** A whole Authorization header value, for malformed-header probes. */
  | { readonly header: string };

export interface RequestSpec {
  readonly method?: string;
  /** Path under the base URL, starting with `/`. */
  readonly path: string;
  /** Encoded with encodeURIComponent; repeated names allowed as pairs. */
  readonly query?: Readonly<Record<string, string | number | undefined>> | readonly (readonly [string, string])[] | undefined;
  /** Sent exactly as given, for adversarial spellings (`page=%20&page=2`). */
  readonly rawQuery?: string | undefined;
  /** @default 'main' */
  readonly auth?: Credential;
  /** Serialised as JSON with `Content-Type: application/json`. */
  readonly body?: unknown;
  /** Sent as it is, for malformed bodies. */
  readonly rawBody?: string;
  /** Overrides the Content-Type of a body; null sends none. */
  readonly contentType?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
  /** Malformed at the HTTP level, so often answered by a front end (see `Exchange.frontEndFragile`). @default false */
  readonly frontEndFragile?: boolean;
  /** @default true: wait for the rate-limit budget first */
  readonly pace?: boolean;
  /** The check means to provoke 429s: they are not waited out and retried. @default false */
  readonly expect429?: boolean;
  /**
   * Read the body as a list page for a walk: checked as JSON throughout, but of its items only
   * `idField` is kept (`list-skeleton.ts`). `json` is then that skeleton.
   * @default undefined: the whole body is parsed
   */
  readonly listSkeleton?: { readonly idField: string | null };
  /**
   * Sending the request twice is harmless, whatever it does: the caller takes the second answer
   * for the first (the teardown takes a DELETE's 404 for a key deleted). A write so marked is sent
   * again after a reset, a 502 or a 504, as a read is. @default false: only safe methods are
   */
  readonly resendable?: boolean;
  /**
   * Requests that give the same name share one connection of their own, kept alive between them
   * (within `IDLE_CONNECTION_MS`), instead of the pool's: what one left on a connection, the next
   * finds (the transports catalogue). @default the pool's connections
   */
  readonly connection?: string;
  /** Cap on the response body; by default it scales with the `limit` asked for. */
  readonly maxBytes?: number;
  readonly timeoutMs?: number;
}

export interface HttpResponse {
  readonly status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  /** The body decoded as UTF-8 (for a list page read as a skeleton, decoded when first read). */
  readonly text: string;
  /** The body's bytes, its content coding removed. */
  readonly raw: Buffer;
  /** The parsed body; undefined when it is not JSON (see `exchange.response.json`). */
  readonly json: unknown;
  readonly exchange: Exchange;
}

/** A request ready for the wire: what every layer of the client sees and may amend. */
export interface Outgoing {
  readonly spec: RequestSpec;
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  readonly auth: AuthKind;
  /** The pacing bucket: one per Authorization value, `anonymous` without one. */
  readonly bucket: string;
  /** The check that made it, for the log. */
  readonly check: string | undefined;
  /** The budget was already acquired for it (by the key-spreading layer): pacing lets it pass. */
  readonly acquired?: boolean;
  /** It carries a key of the run's pool in the configured key's stead (the key-spreading layer). */
  readonly pooled?: boolean;
  /** The log sequence number of the attempt this request sends again, and why. */
  readonly retryOf?: number;
  readonly retryCause?: RetryCause;
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
}

export interface Addressing {
  readonly baseUrl: string;
  readonly keys: { readonly main: string | null; readonly other: string | null };
  /** Gateway headers sent on every request. */
  readonly extraHeaders: readonly (readonly [string, string])[];
}

/** The pacing bucket of an Authorization value: a hash, so that no key is kept in a name. */
export function bucketOf(authorization: string | null): string {
  if (authorization === null) return 'anonymous';
  let bucket = BUCKETS.get(authorization);
  if (bucket === undefined) {
    // Bounded: the run's keys are a few dozen values, but malformed-header probes send many once.
    if (BUCKETS.size >= BUCKETS_KEPT) BUCKETS.clear();
    bucket = `key:${createHash('sha256').update(authorization).digest('hex').slice(0, 12)}`;
    BUCKETS.set(authorization, bucket);
  }
  return bucket;
}

/**
 * Buckets already hashed, by Authorization value: every request asks for its bucket, and key
 * spreading for every key of the pool's, so a run hashed the same few keys some 40 000 times.
 */
const BUCKETS = new Map<string, string>();
const BUCKETS_KEPT = 256;

/** The bucket a credential counts against, for callers that reserve budget by credential. */
export function bucketOfCredential(credential: Credential, keys: Addressing['keys']): string {
  return bucketOf(authorizationOf(credential, keys).authorization);
}

/** Builds the URL, headers and body of a request; nothing is sent. */
export function prepare(spec: RequestSpec, addressing: Addressing, check: string | undefined): Outgoing {
  const { authorization, kind } = authorizationOf(spec.auth ?? 'main', addressing.keys);
  // Identity asked for, since an absent Accept-Encoding allows any coding (RFC 9110, 12.5.3);
  // a coded body is decoded all the same (the transport).
  const headers: Record<string, string> = { accept: 'application/json', 'accept-encoding': 'identity' };
  for (const [name, value] of addressing.extraHeaders) headers[name.toLowerCase()] = value;
  for (const [name, value] of Object.entries(spec.headers ?? {})) headers[name.toLowerCase()] = value;
  if (authorization !== null) headers.authorization = authorization;
  let body: string | undefined;
  if (spec.rawBody !== undefined) body = spec.rawBody;
  else if (spec.body !== undefined) body = JSON.stringify(spec.body);
  if (body !== undefined && spec.contentType !== null) headers['content-type'] = spec.contentType ?? 'application/json';
  return {
    spec,
    method: (spec.method ?? 'GET').toUpperCase(),
    url: urlOf(spec, addressing.baseUrl),
    headers,
    body,
    auth: kind,
    bucket: bucketOf(authorization),
    check,
    ...(spec.timeoutMs !== undefined ? { timeoutMs: spec.timeoutMs } : {}),
    ...(spec.maxBytes !== undefined ? { maxBytes: spec.maxBytes } : {}),
  };
}

function urlOf(spec: RequestSpec, baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  let query = spec.rawQuery ?? '';
  if (spec.query) {
    const pairs = Array.isArray(spec.query)
      ? (spec.query as readonly (readonly [string, string])[])
      : Object.entries(spec.query as Record<string, string | number | undefined>)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, String(v)] as const);
    const encoded = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
    query = query ? `${query}&${encoded}` : encoded;
  }
  return `${base}${spec.path}${query ? `?${query}` : ''}`;
}

function authorizationOf(credential: Credential, keys: Addressing['keys']): { authorization: string | null; kind: AuthKind } {
  if (credential === 'none') return { authorization: null, kind: 'none' };
  if (credential === 'main' || credential === 'other') {
    const key = keys[credential];
    if (!key) throw new Error(`no ${credential} key configured`);
    return { authorization: `Bearer ${key}`, kind: credential };
  }
  if ('header' in credential) return { authorization: credential.header, kind: 'malformed' };
  return { authorization: `Bearer ${credential.key}`, kind: credential.kind };
}
