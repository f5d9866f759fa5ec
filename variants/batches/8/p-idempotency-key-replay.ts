import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { sendError } from '../../../reference/errors.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: Stripe's idempotent requests, and the IETF's
 * draft-ietf-httpapi-idempotency-key-header that grew out of them (Adyen, PayPal, Square, GoCardless,
 * Shopify's payments API and many internal APIs take the same header). A client that sends
 * `Idempotency-Key: <unique string>` on a POST may safely retry it after a timeout: the server keeps
 * the first answer under (account, key) for 24 hours and answers a retry of the same request with
 * that stored answer instead of doing the work twice (Stripe marks such an answer with
 * `Idempotent-Replayed: true`); a key reused with a different request is refused (the draft: 422),
 * and a retry that arrives while the first is still running is told so (the draft: 409). Errors are
 * not stored (Stripe: a request that failed validation saved no result), so a corrected retry with
 * the same key is served. A request without the header is not touched.
 *
 * Here: on `POST /api/v1/submissions` and `POST /api/v1/api_keys` an `Idempotency-Key` header (1 to
 * 255 printable ASCII characters, bare or as the draft's quoted sf-string) is looked up per account.
 * First use: the request runs as in the reference; a 2xx answer is kept 24 h (at most 1000 keys per
 * account, oldest dropped first). Same key, same query and body (compared by a canonical hash, so
 * member order does not matter): a submission's stored 201 is answered again, byte for byte, with
 * `Idempotent-Replayed: true`, and nothing new is created. For an API key the stored answer is
 * never kept: the secret exists only in the creation response (Authentication 5: only a hash is
 * kept), so a replay answers 409 `conflict_error`, code `idempotency_key_consumed`, naming the
 * key's id and saying the secret cannot be shown again; no second key is created. Same key,
 * different request: 422 `invalid_request_error`, code `idempotency_key_reused`, param
 * `Idempotency-Key`. Same key while the first is in flight: 409 `conflict_error`, code
 * `idempotency_key_in_use`. A malformed key value: 422 naming `Idempotency-Key`.
 *
 * Why it is conformant:
 * - The document names no Idempotency-Key header, so a suite built on it never sends one (the brief
 *   and the catalogue check only what the document states): every request the suite makes is
 *   answered exactly as the reference answers it, and no clause can see a difference. The header is
 *   an extension, as extra headers in general are (open point `http-transport`); nothing in the
 *   document forbids accepting it.
 * - Operations, SUB-1: a replayed submission is the stored 201 ("submission created") with the
 *   stored body; the response body of creation is not shown (open point `submission-response`).
 * - Authentication 5 and Details ("Key creation returns the complete key one time only"), KEY-4:
 *   the stored answer of a key creation is never replayed and the secret is never stored; the 409
 *   names the key's id only. A replay cannot reveal the secret a second time.
 * - Errors, rule 3: `conflict_error` "applies to requests that change data", and these are POSTs
 *   that create; its HTTP status is not shown (open point `error-statuses`), 409 is the draft's and
 *   RFC 9110 15.5.10's. ERR-2: `conflict_error` is one of the document's types; 409 is not in the
 *   status table, so no pairing is broken. ERR-6: read-only endpoints never see it (GET ignores
 *   the header).
 * - Errors table, ERR-2, ERR-4: the 422s are `invalid_request_error` and name the input in `param`
 *   (`Idempotency-Key`); all errors are the common envelope (ERR-1).
 * - Limits, RATE-*: authentication and the per-key window run before the lookup (onRequest), so a
 *   replay counts against the key and carries the X-RateLimit-* headers like any request.
 * - GEN-3: the canonical hash walks the body without recursion, so no nesting depth can overflow
 *   the stack into a 500.
 */

/** How long an answer is kept under its key (Stripe: 24 h), on the server's clock. */
const TTL_MS = 24 * 60 * 60 * 1000;
/** Keys kept per account; the oldest are dropped first. */
const MAX_KEYS_PER_ACCOUNT = 1000;
const ROUTES = new Set(['/api/v1/submissions', '/api/v1/api_keys']);
const HEADER = 'Idempotency-Key';

interface Entry {
  readonly fingerprint: string;
  readonly expiresAtMs: number;
  state: 'pending' | 'done';
  status: number;
  /** The stored answer of a submission; never set for a key creation (it holds the secret). */
  body: string | null;
  contentType: string | null;
  /** The id of the key a key creation made. */
  keyId: string | null;
}

/** The common envelope with the document's `conflict_error` type (reference/errors.ts types only the table's seven). */
function conflict(message: string, code: string): { error: { type: 'conflict_error'; code: string; message: string; param: string; path: null } } {
  return { error: { type: 'conflict_error', code, message, param: HEADER, path: null } };
}

/** A fixed piece of text in the canonical form, told apart from the values being walked. */
class Text {
  constructor(readonly text: string) {}
}

/** sha256 of `value` as JSON with members sorted by name, walked with an explicit stack. */
function canonicalHash(value: unknown): string {
  const hash = createHash('sha256');
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item instanceof Text) {
      hash.update(item.text);
    } else if (Array.isArray(item)) {
      stack.push(new Text(']'));
      for (let i = item.length - 1; i >= 0; i--) {
        stack.push(item[i]);
        if (i > 0) stack.push(new Text(','));
      }
      stack.push(new Text('['));
    } else if (typeof item === 'object' && item !== null) {
      const members = item as Record<string, unknown>;
      const names = Object.keys(members).sort();
      stack.push(new Text('}'));
      for (let i = names.length - 1; i >= 0; i--) {
        const name = names[i]!;
        stack.push(members[name]);
        stack.push(new Text(`${JSON.stringify(name)}:`));
        if (i > 0) stack.push(new Text(','));
      }
      stack.push(new Text('{'));
    } else {
      hash.update(JSON.stringify(item) ?? 'null');
    }
  }
  return hash.digest('hex');
}

/** The key's value, or null if it is not 1 to 255 printable ASCII characters (bare, or a quoted sf-string). */
function keyValue(raw: string): string | null {
  const value = /^"(.*)"$/.test(raw) ? raw.slice(1, -1) : raw;
  return /^[\x20-\x7e]{1,255}$/.test(value) ? value : null;
}

export default defineVariant({
  description:
    'Stripe-style Idempotency-Key on the two creating POSTs: a retry with the same key and request replays the stored 201 of a submission (Idempotent-Replayed: true) and is a 409 conflict_error for a key creation (the secret is never stored); the same key with another request is 422 naming Idempotency-Key; no header, no change',
  openPoint: 'http-transport',
  atRisk: ['SUB-1', 'KEY-1', 'KEY-4', 'ERR-1', 'ERR-2', 'ERR-4', 'ERR-6', 'GEN-3'],
  modify: ({ app, state }) => {
    const books = new Map<string, Map<string, Entry>>();
    const inFlight = new WeakMap<FastifyRequest, { book: Map<string, Entry>; key: string; entry: Entry }>();
    const idField = state.profile.apiKeyFields.id ?? 'id';

    const bookOf = (accountId: string): Map<string, Entry> => {
      let book = books.get(accountId);
      if (!book) books.set(accountId, (book = new Map()));
      const now = state.now();
      for (const [key, entry] of book) if (entry.state === 'done' && entry.expiresAtMs <= now) book.delete(key);
      return book;
    };

    app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'POST' || !ROUTES.has(req.routeOptions.url ?? '')) return;
      const raw = req.headers['idempotency-key'];
      if (raw === undefined) return;
      const key = typeof raw === 'string' ? keyValue(raw) : null;
      if (key === null) {
        return sendError(reply, 422, 'invalid_request_error', `${HEADER} must be 1 to 255 printable ASCII characters.`, {
          code: 'invalid_idempotency_key',
          param: HEADER,
        });
      }
      const fingerprint = canonicalHash([req.routeOptions.url, { ...(req.query as object) }, req.body ?? null]);
      const book = bookOf(req.account.id);
      const found = book.get(key);
      if (found) {
        if (found.fingerprint !== fingerprint) {
          return sendError(reply, 422, 'invalid_request_error', `This ${HEADER} was already used with a different request.`, {
            code: 'idempotency_key_reused',
            param: HEADER,
          });
        }
        if (found.state === 'pending') {
          return reply.code(409).send(conflict(`A request with this ${HEADER} is still being processed.`, 'idempotency_key_in_use'));
        }
        if (found.body !== null) {
          reply.header('idempotent-replayed', 'true');
          if (found.contentType) reply.type(found.contentType);
          return reply.code(found.status).send(found.body);
        }
        return reply
          .code(409)
          .send(
            conflict(
              `API key ${found.keyId ?? ''} was already created with this ${HEADER}; its secret was shown once and cannot be shown again.`,
              'idempotency_key_consumed',
            ),
          );
      }
      while (book.size >= MAX_KEYS_PER_ACCOUNT) {
        const oldest = [...book].find(([, entry]) => entry.state === 'done');
        if (!oldest) break;
        book.delete(oldest[0]);
      }
      const entry: Entry = { fingerprint, expiresAtMs: state.now() + TTL_MS, state: 'pending', status: 0, body: null, contentType: null, keyId: null };
      book.set(key, entry);
      inFlight.set(req, { book, key, entry });
      return;
    });

    app.addHook('onSend', async (req, reply, payload) => {
      const flight = inFlight.get(req);
      if (!flight) return payload;
      inFlight.delete(req);
      const { book, key, entry } = flight;
      if (reply.statusCode < 200 || reply.statusCode >= 300 || typeof payload !== 'string') {
        // Errors are not kept: a corrected retry with the same key is served.
        if (book.get(key) === entry) book.delete(key);
        return payload;
      }
      entry.state = 'done';
      entry.status = reply.statusCode;
      if (req.routeOptions.url === '/api/v1/api_keys') {
        // Only the id: the answer holds the secret, and only a hash of it may be kept.
        try {
          const id = (JSON.parse(payload) as Record<string, unknown>)[idField];
          entry.keyId = typeof id === 'string' ? id : null;
        } catch {
          entry.keyId = null;
        }
      } else {
        entry.body = payload;
        const type = reply.getHeader('content-type');
        entry.contentType = typeof type === 'string' ? type : 'application/json; charset=utf-8';
      }
      return payload;
    });

    // A request that ends without an answer (the client went away) leaves no pending key behind.
    const forget = async (req: FastifyRequest) => {
      const flight = inFlight.get(req);
      if (!flight) return;
      inFlight.delete(req);
      if (flight.book.get(flight.key) === flight.entry && flight.entry.state === 'pending') flight.book.delete(flight.key);
    };
    app.addHook('onResponse', forget);
    app.addHook('onRequestAbort', forget);
  },
});
