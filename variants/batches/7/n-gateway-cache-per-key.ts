import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { route } from '../../../reference/routes/list.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: an API gateway with a response cache behind its authentication
 * and rate limiting, Kong Gateway's proxy-cache plugin being the common one. Kong runs plugins by
 * priority: key-auth (1250) checks the key, rate-limiting (910) counts the request and writes its
 * headers, and only then proxy-cache (100) looks the request up; for an authenticated request the
 * cache key is built from the consumer, the method and the URI, so one consumer's entry is never
 * another's (a deployment that gives each API key a consumer of its own gets a partition per
 * key; this one keys on the API key itself). On a hit Kong answers with the stored status,
 * body and headers: the upstream's `Date` is among them, since Kong's nginx template passes it
 * (`proxy_pass_header Date`), and the plugin adds `Age` (seconds since the entry was stored),
 * `X-Cache-Status: Hit` and `X-Cache-Key`; stored rate-limit "remaining" headers are not
 * replayed, so the rate-limiting plugin's count of this very request shows. A fresh fetch says `Miss`, a fetch past the TTL `Refresh`, a
 * request the cache will not serve `Bypass`. Default config: `response_code` 200, 301, 404;
 * `request_method` GET, HEAD; `content_type` application/json; `cache_ttl` 300 (30 here). It is
 * enabled on the catalogue routes only (workspaces, governance models, records, taxonomies,
 * fields, picklists, lists and retrievals), whose data no API request changes; the routes whose
 * content the API changes (keys, submissions) are not cached and say `Cache-Control: no-store`.
 * Azure API Management's `cache-lookup vary-by-developer="true"` (after `validate-subscription`
 * and `rate-limit-by-key`) and Tyk's cache with `cache_by_headers: [Authorization]` do the same.
 * Here the reference's authentication and rate limiter play key-auth and rate-limiting; a hook
 * after them is the cache: GET only (the HEAD route is left to the origin), 200 and 404 stored, a
 * request `Cache-Control: no-store` bypasses, `no-cache`, `Pragma: no-cache` or a `max-age` the
 * entry exceeds refreshes (RFC 9111 5.2.1). The store is bounded (32 MB, 1 MB an entry).
 *
 * Why it is conformant:
 * - Nothing the document promises is skipped on a hit. The key is checked before the cache is
 *   consulted: a revoked key is 401 on the very next request (Authentication 5 and 7; KEY-5), an
 *   unknown or malformed one too (AUTH-1..3, AUTH-7, AUTH-8). Every request, hit or not, is
 *   counted in its key's window and carries that count's X-RateLimit-* (Limits; RATE-1..RATE-8
 *   unchanged: Remaining falls by one per request, a hit past the ceiling is a 429 before the
 *   cache is reached). The key's last use is written on every request (KEY-7).
 * - No key is served another's content: the cache key includes the authenticated key's id
 *   (Authentication 4: "It can read and write only its own account's data"; AUTH-6). A key of the
 *   second account has its own entries and its own 404s.
 * - The body of a hit is byte for byte the origin's answer to the same URL with the same key: the
 *   cached collections are ones no request of the API changes, so lists and retrievals agree
 *   (RES-1..RES-4, RES-7), walks see each resource once (PAG-1..PAG-8), a missing resource is the
 *   same 404 `not_found_error` with code and param null (ERR-5, ERR-9). Errors of page and limit
 *   (422) are never stored. Nothing secret is stored: keys and submissions are not cached (KEY-4).
 * - `Date` and `Age` on a hit follow RFC 9111 section 4 and 5.1: a cache that answers from a stored
 *   response keeps the origin's `Date` (RFC 9110 6.6.1: the time the message was originated) and
 *   MUST add `Age`, the seconds since it was generated; the server's present time is `Date` plus
 *   `Age` (RFC 9111 4.2.3). X-RateLimit-Reset is written for this request on the server's clock
 *   and is no more than one window ahead of that present time (RATE-2): a reader that took a
 *   hit's `Date` alone for the server's clock would be up to 30 s off, which is why `Age` is sent.
 * - `Cache-Control: private, max-age=30` tells downstream caches what the gateway does: only a
 *   cache dedicated to one user may keep it (RFC 9111 5.2.2.7), for 30 s counted with `Age` (4.2.1).
 *   A partition per key is such a cache. `no-store` on keys and submissions (5.2.2.5) keeps the
 *   revealed key out of every cache.
 * - The document states nothing of caching (open point `http-transport`); every status, body and
 *   header it does state is the reference's.
 */

const TTL_SECONDS = 30;
const MAX_ENTRY_BYTES = 1024 * 1024;
const MAX_TOTAL_BYTES = 32 * 1024 * 1024;
const MAX_ENTRIES = 10_000;

interface Entry {
  readonly status: number;
  readonly body: string;
  readonly contentType: string;
  readonly date: string;
  readonly storedAtMs: number;
  readonly bytes: number;
}

interface Directives {
  readonly noStore: boolean;
  readonly noCache: boolean;
  readonly maxAge: number | null;
}

/** The request's Cache-Control (and HTTP/1.0 Pragma) directives that concern a cache's answer (RFC 9111 5.2.1, 5.4). */
function requestDirectives(req: FastifyRequest): Directives {
  const header = req.headers['cache-control'];
  const text = (Array.isArray(header) ? header.join(',') : (header ?? '')).toLowerCase();
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const maxAgePart = parts.find((part) => part.startsWith('max-age='));
  const maxAge = maxAgePart ? Number.parseInt(maxAgePart.slice('max-age='.length).replace(/"/g, ''), 10) : Number.NaN;
  const pragma = String(req.headers.pragma ?? '').toLowerCase();
  return {
    noStore: parts.includes('no-store'),
    noCache: parts.includes('no-cache') || (header === undefined && pragma.includes('no-cache')),
    maxAge: Number.isFinite(maxAge) && maxAge >= 0 ? maxAge : null,
  };
}

export default defineVariant({
  description:
    'Kong proxy-cache style gateway cache after key check and rate limiting: GET catalogue lists and retrievals (200 and 404) are stored per API key for 30 s and replayed with the stored Date, an Age header and X-Cache-Status: Hit; rate-limit headers, key checks and last use stay per request; keys and submissions are never cached (Cache-Control: no-store)',
  openPoint: 'http-transport',
  atRisk: ['RATE-2', 'RATE-5', 'RATE-8', 'KEY-5', 'KEY-7', 'AUTH-6', 'RES-4', 'RES-7', 'PAG-7', 'PAG-8', 'ERR-5', 'ERR-9'],
  modify: ({ app, state }) => {
    const { paths } = state.profile;
    const cached = new Set(
      [
        '/api/v1/workspaces',
        '/api/v1/governance_models',
        '/api/v1/records',
        paths.workspace,
        paths.governanceModel,
        paths.record,
        paths.taxonomies,
        paths.taxonomy,
        paths.fields,
        paths.field,
        paths.picklists,
        paths.picklist,
      ]
        .filter((path): path is string => typeof path === 'string')
        .map(route),
    );
    // Routes whose content the API changes (and the key creation, which reveals the secret): never stored.
    const uncached = new Set(
      ['/api/v1/api_keys', '/api/v1/submissions', paths.apiKeyList, paths.apiKey, paths.submissionList]
        .filter((path): path is string => typeof path === 'string')
        .map(route),
    );
    const store = new Map<string, Entry>();
    let totalBytes = 0;
    const drop = (key: string) => {
      const entry = store.get(key);
      if (!entry) return;
      store.delete(key);
      totalBytes -= entry.bytes;
    };
    const hits = new WeakMap<FastifyRequest, Entry>();
    const fetches = new WeakMap<FastifyRequest, { key: string; status: 'Miss' | 'Refresh' | 'Bypass' }>();

    // Registered after the reference's authentication (its onRequest hook comes first): the key is
    // checked and the request counted before the cache is looked at; a 401 or 429 never gets here.
    app.addHook('onRequest', async (req, reply) => {
      if (reply.sent || req.method !== 'GET') return;
      const pattern = req.routeOptions.url;
      if (pattern === undefined || !cached.has(pattern) || !req.apiKey) return;
      const key = createHash('sha256').update(`${req.apiKey.id}\n${req.method}\n${req.url}`).digest('hex');
      const asked = requestDirectives(req);
      if (asked.noStore) {
        fetches.set(req, { key, status: 'Bypass' });
        return;
      }
      const entry = store.get(key);
      const now = state.now();
      if (entry && now - entry.storedAtMs >= TTL_SECONDS * 1000) drop(key);
      const fresh = store.get(key);
      const ageSeconds = fresh ? Math.max(0, Math.floor((now - fresh.storedAtMs) / 1000)) : 0;
      if (!fresh || asked.noCache || (asked.maxAge !== null && ageSeconds > asked.maxAge)) {
        fetches.set(req, { key, status: entry ? 'Refresh' : 'Miss' });
        return;
      }
      // A hit: least recently used last.
      store.delete(key);
      store.set(key, fresh);
      hits.set(req, fresh);
      reply
        .code(fresh.status)
        .header('content-type', fresh.contentType)
        .header('cache-control', `private, max-age=${TTL_SECONDS}`)
        .header('age', String(ageSeconds))
        .header('x-cache-status', 'Hit')
        .header('x-cache-key', key);
      return reply.send(fresh.body);
    });

    // After the reference's own onSend (which writes Date from the server's clock).
    app.addHook('onSend', async (req, reply, payload) => {
      const hit = hits.get(req);
      if (hit) {
        // The stored response's Date: the time the origin made it (RFC 9111 4; Age says how long ago).
        reply.header('date', hit.date);
        return payload;
      }
      const fetched = fetches.get(req);
      if (!fetched) {
        // Keys (the secret!) and submissions: no cache may keep them.
        const pattern = req.routeOptions.url;
        if (pattern !== undefined && uncached.has(pattern)) reply.header('cache-control', 'no-store');
        return payload;
      }
      const status = reply.statusCode;
      const storable = (status === 200 || status === 404) && typeof payload === 'string';
      // Kong's header_filter: a response its config does not store (a 422 of page or limit) is `Bypass`.
      reply.header('x-cache-status', storable ? fetched.status : 'Bypass');
      reply.header('x-cache-key', fetched.key);
      if (!storable) return payload;
      reply.header('cache-control', `private, max-age=${TTL_SECONDS}`);
      if (fetched.status === 'Bypass') return payload;
      const bytes = Buffer.byteLength(payload);
      if (bytes > MAX_ENTRY_BYTES) return payload;
      const date = reply.getHeader('date');
      const contentType = reply.getHeader('content-type');
      drop(fetched.key);
      store.set(fetched.key, {
        status,
        body: payload,
        contentType: typeof contentType === 'string' ? contentType : 'application/json; charset=utf-8',
        date: typeof date === 'string' ? date : new Date(state.now()).toUTCString(),
        storedAtMs: state.now(),
        bytes,
      });
      totalBytes += bytes;
      for (const oldest of store.keys()) {
        if (totalBytes <= MAX_TOTAL_BYTES && store.size <= MAX_ENTRIES) break;
        drop(oldest);
      }
      return payload;
    });
  },
});
