import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { defineVariant } from '../../variant.js';
import type { Account, ApiKeyRecord } from '../../../reference/store.js';

/*
 * Where this happens in the field: the "identifiable token" format GitHub moved to in 2021
 * (`ghp_`, `gho_`, ... + 30 base62 characters + a 6-character base62 CRC32 of them), adopted by
 * npm for its `npm_` tokens and copied by many SaaS back ends since: a short product prefix
 * ending in `_`, a body in base62 only (no `-` or `_`, so a
 * double-click selects the whole token and no URL or shell quoting is needed), and a checksum
 * suffix. The checksum lets the service (and the secret scanners of GitHub, GitLab and the
 * clouds, which are handed the format) tell a real token from a look-alike without a database
 * read: a token of the new shape whose checksum does not match is refused before the key table is
 * touched, so typos and brute-force guesses cost no lookup. Keys issued before the change keep
 * working: a token that does not have the new shape goes to the hash lookup as before (GitHub's old
 * 40-hex tokens did the same). Here the prefix becomes `wsk_` ("workspace key"), declared in the
 * profile; new keys are `wsk_` + 30 base62 + 6 base62 of CRC32 (zero-padded); the two seeded keys,
 * issued before the migration, stay `wsk_` + 32 base64url characters.
 *
 * Why it is conformant: Authentication 2 says only that a key is `<KEY_PREFIX><SECRET>`, a fixed
 * prefix followed by secret characters; the prefix is not shown (open point key-prefix) and the
 * alphabet and length of the secret are not stated anywhere. Every key the API reveals starts with
 * the profile's prefix (AUTH-5). The key is still kept only as a SHA-256 hash (Authentication 5):
 * the checksum is computed from the token presented, nothing more is stored. A token that fails the
 * checksum is refused exactly as an unknown key is: 401, the common envelope, type
 * `authentication_error`, code null, param null (Authentication 7; AUTH-3, AUTH-8); the reading
 * taken is that such a token is "unknown" for AUTH-3 and gets the unknown key's answer, not the
 * different, unshown shape of a malformed header (so no check can tell the two refusals apart). Any
 * character changed, any case flipped, any character added or cut is caught by the checksum or by
 * the length, and the rest by the hash lookup. The list's last-four hint now shows four checksum
 * characters: fewer than eight consecutive characters of the secret, as before (KEY-3, KEY-4).
 * Rate limits, paths, member names and statuses are the reference's.
 */

const PREFIX = 'wsk_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY = 30;
const CHECK = 6;
const NEW_SHAPE = new RegExp(`^[0-9A-Za-z]{${BODY + CHECK}}$`);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (IEEE, as zlib's) of the ASCII text. */
function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** The checksum suffix: CRC-32 of the body in base62, left-padded with `0` to six characters. */
function checksum(body: string): string {
  let n = crc32(body);
  let out = '';
  while (n > 0) {
    out = BASE62[n % 62]! + out;
    n = Math.floor(n / 62);
  }
  return out.padStart(CHECK, '0');
}

const sha256 = (token: string): Buffer => createHash('sha256').update(token).digest();

export default defineVariant({
  description:
    'keys in the GitHub-style identifiable format, `wsk_` + 30 base62 characters + a 6-character base62 CRC32; a token of that shape whose checksum fails is refused as an unknown key before any lookup, older keys keep working',
  openPoint: 'key-prefix',
  atRisk: ['AUTH-2', 'AUTH-3', 'AUTH-5', 'AUTH-8', 'KEY-1', 'KEY-3', 'KEY-4', 'KEY-5'],
  profile: (reference) => ({ ...reference, keyPrefix: PREFIX }),
  modify: ({ state }) => {
    const { store } = state;
    const prefix = store.keyPrefix;
    /** Keys of the new format, by the hex of their hash: the key table's hash index. */
    const byHash = new Map<string, ApiKeyRecord>();

    store.createKey = (account: Account, name: string) => {
      let body = '';
      for (let i = 0; i < BODY; i++) body += BASE62[randomInt(62)];
      const secret = `${prefix}${body}${checksum(body)}`;
      const hash = sha256(secret);
      // The store's own sequence, through its public counter, and the reference's id shape.
      const sequence = parseInt(store.nextId('key').slice('key_'.length), 36);
      const record: ApiKeyRecord = {
        id: `key_${sequence.toString(36).padStart(4, '0')}${randomInt(0x100000000).toString(16).padStart(8, '0')}`,
        name,
        accountId: account.id,
        hash,
        hint: secret.slice(-4),
        createdAt: new Date(state.now()).toISOString(),
        lastUsedAt: null,
        revokedAtMs: null,
      };
      account.keys.set(record.id, record);
      byHash.set(hash.toString('hex'), record);
      return { record, secret };
    };

    const legacy = store.findKey.bind(store);
    store.findKey = (token: string): ApiKeyRecord | null => {
      const rest = token.startsWith(prefix) ? token.slice(prefix.length) : null;
      if (rest !== null && NEW_SHAPE.test(rest)) {
        // The offline check: a look-alike is refused without reading the key table.
        if (checksum(rest.slice(0, BODY)) !== rest.slice(BODY)) return null;
        const hash = sha256(token);
        const found = byHash.get(hash.toString('hex'));
        if (found && timingSafeEqual(found.hash, hash)) return found;
      }
      // Keys issued before the format (the seeded ones), and anything else: the hash lookup as before.
      return legacy(token);
    };
  },
});
