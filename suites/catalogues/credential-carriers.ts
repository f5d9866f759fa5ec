import type { ClauseId } from '../../src/kit.js';

/**
 * Where an implementation might read a key from besides the Authorization header: a legacy query
 * parameter, a header of another gateway's convention, a cookie. The document requires the
 * header on every endpoint (Authentication, 1): a request without it is 401 (AUTH-1), wherever
 * else the key is. Data, not code: AUTH-1's probes without the header each carry a key of the
 * run's own in the next carrier (suites/auth.suite.ts), so every carrier is visited on some
 * endpoint in every run, at no request more; docs/coverage.md lists them.
 */
export interface CredentialCarrier {
  /** How the report names it: `the api_key query parameter`. */
  readonly name: string;
  readonly carry: (key: string) => { readonly query?: Readonly<Record<string, string>>; readonly headers?: Readonly<Record<string, string>> };
  /** The clauses a request carrying it feeds. */
  readonly clauses: readonly ClauseId[];
  /** Clauses it cannot reach, each with the reason. */
  readonly unreached: Readonly<Partial<Record<ClauseId, string>>>;
}

const UNREACHED = {
  'RATE-7':
    'a carrier that a target honours turns a request without Authorization into a keyed one, off the per-IP budget; the burst without a key carries none, so that its count stays the clause’s',
} as const;

// Not here: Proxy-Authorization. A forward proxy between the suite and the target (HTTP_PROXY, a
// corporate network) reads it as its own credential: the key would reach the proxy, and its 407
// would read as the API's answer.
export const CREDENTIAL_CARRIERS: readonly CredentialCarrier[] = [
  { name: 'the api_key query parameter', carry: (key) => ({ query: { api_key: key } }), clauses: ['AUTH-1', 'AUTH-7'], unreached: UNREACHED },
  { name: 'the access_token query parameter', carry: (key) => ({ query: { access_token: key } }), clauses: ['AUTH-1', 'AUTH-7'], unreached: UNREACHED },
  { name: 'an X-API-Key header', carry: (key) => ({ headers: { 'x-api-key': key } }), clauses: ['AUTH-1', 'AUTH-7'], unreached: UNREACHED },
  { name: 'an Api-Key header', carry: (key) => ({ headers: { 'api-key': key } }), clauses: ['AUTH-1', 'AUTH-7'], unreached: UNREACHED },
  { name: 'an api_key cookie', carry: (key) => ({ headers: { cookie: `api_key=${key}` } }), clauses: ['AUTH-1', 'AUTH-7'], unreached: UNREACHED },
];
