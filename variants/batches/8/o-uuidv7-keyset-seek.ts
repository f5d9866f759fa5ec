import { randomBytes } from 'node:crypto';
import type { Account, ApiKeyRecord } from '../../../reference/store.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: a PostgreSQL-backed API whose newer tables take UUIDv7 primary
 * keys minted by the application (Ruby 3.3's `SecureRandom.uuid_v7`, Python 3.14's `uuid.uuid7()`,
 * the `uuid` package's `v7()` in Node, `Uuid::now_v7()` in Rust), on several application replicas
 * behind a round-robin load balancer. A UUIDv7 begins with the Unix time in milliseconds of the
 * replica that minted it, so `ORDER BY id` is creation order as the replicas' clocks saw it: each
 * replica is monotonic on its own, but replicas disagree by a few milliseconds of NTP skew, so two
 * rows created a millisecond or two apart on different replicas may list in the other order. The
 * list endpoints keep every list in primary-key order (`ORDER BY id`: a uuid column compares as its
 * 16 bytes, a text key under `COLLATE "C"` byte by byte) and serve the document's page/limit with keyset (seek)
 * pagination, the way "use the index, Luke" and GitLab's keyset pagination recommend: the boundary
 * of page N is found with an index-only scan of the primary key
 * (`SELECT id ... ORDER BY id OFFSET (N-1)*limit LIMIT 1`), the page itself is
 * `WHERE id >= $boundary ORDER BY id LIMIT limit + 1` (the extra row answers has_more) and
 * total_count is a `count(*)` in the same snapshot. Rows that came over from the old system keep
 * their text keys (workspaces, governance models, catalogue, records) and sort by them; API keys
 * and submissions, created through this API, get UUIDv7 keys. Here: key ids (the owner keys too)
 * and submission ids are UUIDv7 minted on one of three replicas in turn, whose clocks are 0, +6 and
 * -4 ms from the server's; every list is served in ascending id order.
 *
 * Why it is conformant:
 * - Pagination envelope; PAG-1, PAG-6, PAG-7, PAG-8: the order is a total order on a unique,
 *   immutable key, so it is the same on every request: a walk of an unchanging collection sees each
 *   resource once, every page but the last holds exactly `limit` items, has_more is false exactly
 *   on page ceil(total_count / limit), and total_count counts every matching resource. The
 *   envelope, its members and the page arithmetic are the reference's (the order is applied before
 *   the page is cut, so page and limit mean what they mean in the reference).
 * - The document fixes no order for any list (open point `list-order`): "items: the resources of
 *   the current page" says which resources, not in which order. Nothing says that a resource created
 *   later lists after one created earlier; here it almost always does, and within a few
 *   milliseconds (replica skew) it may not. SUB-4: filters still only narrow, and total_count counts
 *   what matches. KEY-3, KEY-6: the key list shows each live key's name and last-use time (never its
 *   secret) and drops a deleted key, wherever in the order it sits.
 * - Identifiers: the document says only that an id is a string (Resources: "id | string |
 *   identifier"); a UUID is one. RES-6: UUIDv7 ids are unique (48-bit time, 12-bit per-replica
 *   sequence, 62 random bits). The key path (`/api/v1/api_keys/{id}`) takes the new ids: DELETE
 *   revokes the key at once (KEY-5) and a second DELETE is 404 (KEY-6). KEY-4: an id is hex and
 *   dashes minted from its own random bytes, never from the secret.
 * - PAG-2..PAG-5, PAG-9, PAG-10: page and limit are read exactly as in the reference; a page past
 *   the end is the reference's 200 with empty items, has_more false and the same total_count.
 * - No profile fact changes: the id format is no declared fact, and the paths and field names are
 *   the reference's.
 */

/** Clock offsets of the three application replicas that mint ids, in ms (NTP keeps them close, not equal). */
const REPLICA_SKEW_MS = [0, 6, -4] as const;

interface Replica {
  readonly skewMs: number;
  lastMs: number;
  sequence: number;
}

/** RFC 9562 UUIDv7: 48-bit Unix ms, version 7, a 12-bit sequence (method 1, monotonic per minter), variant 10, 62 random bits. */
function mintUuidV7(replica: Replica, nowMs: number): string {
  let ms = Math.max(0, Math.floor(nowMs + replica.skewMs));
  if (ms <= replica.lastMs) {
    ms = replica.lastMs;
    replica.sequence++;
    if (replica.sequence > 0xfff) {
      ms++;
      replica.sequence = randomBytes(2).readUInt16BE(0) & 0x7ff;
    }
  } else {
    replica.sequence = randomBytes(2).readUInt16BE(0) & 0x7ff;
  }
  replica.lastMs = ms;
  const bytes = randomBytes(16);
  let time = BigInt(ms);
  for (let i = 5; i >= 0; i--) {
    bytes[i] = Number(time & 0xffn);
    time >>= 8n;
  }
  bytes[6] = 0x70 | (replica.sequence >> 8);
  bytes[7] = replica.sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Record ids are issued in index order (`rec_<tag><index, base 36, 5 digits>`): below 36^5 their id order is their index order. */
const RECORD_IDS_IN_ORDER = 36 ** 5;

export default defineVariant({
  description:
    'PostgreSQL with UUIDv7 primary keys minted on three app replicas (clocks 0, +6, -4 ms apart): API keys and submissions get UUIDv7 ids, every list is kept in primary-key order (ORDER BY id, byte order) and page/limit are served by a keyset seek from the page boundary, so rows created a few ms apart on different replicas may list out of arrival order',
  openPoint: 'list-order',
  atRisk: ['PAG-6', 'PAG-7', 'PAG-8', 'SUB-1', 'SUB-4', 'KEY-3', 'KEY-5', 'KEY-6', 'RES-4', 'RES-6', 'RES-7'],
  modify: ({ state, behaviour }) => {
    const { store } = state;
    const replicas: Replica[] = REPLICA_SKEW_MS.map((skewMs) => ({ skewMs, lastMs: -1, sequence: 0 }));
    let turn = 0;
    // The load balancer's round robin: each row is minted on the next replica.
    const mint = (nowMs: number) => mintUuidV7(replicas[turn++ % replicas.length]!, nowMs);

    const rekey = (account: Account, key: ApiKeyRecord, id: string) => {
      account.keys.delete(key.id);
      (key as { id: string }).id = id;
      account.keys.set(id, key);
    };
    // The keys that exist before the first request (the accounts' owner keys) were made by the same code.
    for (const account of store.accounts) {
      for (const key of [...account.keys.values()]) rekey(account, key, mint(Date.parse(key.createdAt)));
    }
    const createKey = store.createKey.bind(store);
    store.createKey = (account, name) => {
      const made = createKey(account, name);
      rekey(account, made.record, mint(state.now()));
      return made;
    };
    const nextId = store.nextId.bind(store);
    store.nextId = (prefix) => (prefix === 'sub' ? mint(state.now()) : nextId(prefix));

    // ORDER BY id: byte order of the ids (ASCII here, so UTF-16 order is byte order).
    behaviour.listOrder = (total, itemAt) => {
      if (total < 2) return null;
      const idOf = (index: number): string => {
        const item = itemAt(index) as { id?: unknown } | undefined;
        return typeof item?.id === 'string' ? item.id : '';
      };
      if (idOf(0).startsWith('rec_') && total <= RECORD_IDS_IN_ORDER) return null;
      const ids = Array.from({ length: total }, (_, index) => idOf(index));
      return ids.map((_, index) => index).sort((a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : a - b));
    };
  },
});
