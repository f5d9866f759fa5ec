import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { defineVariant } from '../../variant.js';
import type { Account, ApiKeyRecord } from '../../../reference/store.js';

/*
 * Where this happens in the field: services that treat API keys like passwords. The pattern of
 * djangorestframework-api-key (keys `<prefix>.<secret>`, the short prefix stored in clear as the
 * lookup column, the whole key hashed with a salted password hasher) and of many Rails and Go
 * services since: a per-key salt makes a plain "WHERE hash = ?" lookup impossible, so the key
 * carries a short public lookup segment, and the slow hash (scrypt, Node's default cost) is paid
 * once per key and process, after which verified keys sit in an in-process cache. A team ships it
 * because its security review asked for salted, slow hashes of every credential; the cache because
 * scrypt on every request would cost tens of milliseconds each. Keys minted before the switch
 * (here: the two seeded ones) are plain SHA-256 digests without a lookup segment and keep working
 * through the old index (a key keeps working, Authentication 3); the cache covers them too.
 *
 * Why it is conformant: keys are still `<KEY_PREFIX><SECRET>` (Authentication 2); the characters
 * of the secret are not shown by the document, and here they are an 8-character lookup segment, a
 * dot (a token68 character, RFC 7235) and 43 base64url characters. Only a secure hash is kept
 * (Authentication 5): a salted scrypt digest per key, the verified cache keyed by a SHA-256 digest
 * of the token; the lookup segment is never shown by any response (the list shows the reference's
 * last-four hint only). A changed, cut, extended or re-cased token fails the lookup or the hash:
 * 401 `authentication_error` (Authentication 7). Deleting a key revokes it at once (Details and
 * open points): a cache hit is re-checked against the key's revocation, and a successful DELETE
 * evicts every cached entry of a revoked key of the account before its response is written. All
 * of this is synchronous inside one request's authentication, so no interleaving of concurrent
 * requests can see a half-revoked or half-created key. A new key works on its very first request.
 */

/** Characters of the public lookup segment (6 random bytes in base64url). */
const LOOKUP_LENGTH = 8;
const SEPARATOR = '.';
/** How long a verified key stays in the cache before scrypt runs again (server clock). */
const CACHE_TTL_MS = 10 * 60 * 1000;
const CACHE_MAX_ENTRIES = 10_000;

interface CachedKey {
  readonly record: ApiKeyRecord;
  readonly expiresAtMs: number;
}

/** scrypt with Node's default cost (N = 16384, r = 8, p = 1): 16 MiB, within the default maxmem. */
function derive(token: string, salt: Buffer): Buffer {
  return scryptSync(token, salt, 32);
}

export default defineVariant({
  description:
    'keys carry a public lookup segment (`<prefix><lookup>.<secret>`) and are stored as per-key salted scrypt hashes; verified keys are cached in process and evicted on revocation',
  openPoint: 'key-prefix',
  atRisk: ['AUTH-2', 'AUTH-3', 'AUTH-5', 'KEY-1', 'KEY-2', 'KEY-4', 'KEY-5', 'KEY-6', 'RATE-6'],
  modify: (reference) => {
    const { app, state } = reference;
    const { store } = state;
    const prefix = store.keyPrefix;
    /** The reference's SHA-256 index: keys issued before the switch to salted hashes. */
    const legacyFind = store.findKey.bind(store);
    /** The lookup column: segment -> key row and its salt. */
    const byLookup = new Map<string, { readonly record: ApiKeyRecord; readonly salt: Buffer }>();
    /** Verified tokens, by the SHA-256 of the token (never the token itself). */
    const verified = new Map<string, CachedKey>();
    /** Which cache entries belong to a key, for its eviction. */
    const entriesOfKey = new Map<string, Set<string>>();

    const forget = (cacheKey: string): void => {
      const entry = verified.get(cacheKey);
      if (!entry) return;
      verified.delete(cacheKey);
      const set = entriesOfKey.get(entry.record.id);
      set?.delete(cacheKey);
      if (set && set.size === 0) entriesOfKey.delete(entry.record.id);
    };
    const evictKey = (keyId: string): void => {
      for (const cacheKey of [...(entriesOfKey.get(keyId) ?? [])]) forget(cacheKey);
    };
    const remember = (cacheKey: string, record: ApiKeyRecord, nowMs: number): void => {
      forget(cacheKey);
      // Bounded: the oldest entry goes first (a Map iterates in insertion order).
      while (verified.size >= CACHE_MAX_ENTRIES) {
        const oldest = verified.keys().next();
        if (oldest.done) break;
        forget(oldest.value);
      }
      verified.set(cacheKey, { record, expiresAtMs: nowMs + CACHE_TTL_MS });
      const set = entriesOfKey.get(record.id) ?? new Set<string>();
      set.add(cacheKey);
      entriesOfKey.set(record.id, set);
    };

    /** The key a token is, by its lookup segment and salted hash, or by the legacy digest. */
    const verify = (token: string): ApiKeyRecord | null => {
      if (!token.startsWith(prefix)) return null;
      const rest = token.slice(prefix.length);
      if (rest.length > LOOKUP_LENGTH + 1 && rest.charAt(LOOKUP_LENGTH) === SEPARATOR) {
        const row = byLookup.get(rest.slice(0, LOOKUP_LENGTH));
        if (!row) return null;
        const hash = derive(token, row.salt);
        return hash.length === row.record.hash.length && timingSafeEqual(hash, row.record.hash) ? row.record : null;
      }
      // No lookup segment: a key from before the switch (its secret is base64url, without a dot).
      return legacyFind(token);
    };

    store.createKey = (account: Account, name: string): { record: ApiKeyRecord; secret: string } => {
      let lookup = randomBytes(6).toString('base64url');
      while (byLookup.has(lookup)) lookup = randomBytes(6).toString('base64url');
      const secret = `${prefix}${lookup}${SEPARATOR}${randomBytes(32).toString('base64url')}`;
      const salt = randomBytes(16);
      const record: ApiKeyRecord = {
        id: `${store.nextId('key')}${randomBytes(4).toString('hex')}`,
        name,
        accountId: account.id,
        hash: derive(secret, salt),
        // The last four characters, as before: too short to be a part of the secret.
        hint: secret.slice(-4),
        createdAt: new Date(state.now()).toISOString(),
        lastUsedAt: null,
        revokedAtMs: null,
      };
      account.keys.set(record.id, record);
      byLookup.set(lookup, { record, salt });
      return { record, secret };
    };

    store.findKey = (token: string): ApiKeyRecord | null => {
      const nowMs = state.now();
      const cacheKey = createHash('sha256').update(token).digest('hex');
      const cached = verified.get(cacheKey);
      if (cached) {
        // A revoked key is never served from the cache, whatever its entry's age.
        if (cached.expiresAtMs > nowMs && cached.record.revokedAtMs === null) return cached.record;
        forget(cacheKey);
      }
      const record = verify(token);
      // A revoked key is returned as the reference's lookup returns it (authentication refuses it),
      // but never cached.
      if (record && record.revokedAtMs === null) remember(cacheKey, record, nowMs);
      return record;
    };

    // Revocation: once a DELETE of the key route succeeded, the account's revoked keys leave the
    // cache before the response goes out (the token stops working immediately).
    app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'DELETE' || reply.statusCode >= 300) return payload;
      const account = req.account as Account | undefined;
      if (!account) return payload;
      for (const key of account.keys.values()) if (key.revokedAtMs !== null) evictKey(key.id);
      return payload;
    });
  },
});
