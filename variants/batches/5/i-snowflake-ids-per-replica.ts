import type { Submission } from '../../../reference/store.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the API runs as three replicas that all write submissions, and
 * they mint the ids themselves, without a round trip to a sequence, as Twitter's Snowflake does
 * (and Discord's, Mastodon's and Instagram's ids after it): 41 bits of milliseconds since a custom
 * epoch (here 2020-01-01), 10 bits of worker id (each pod's StatefulSet ordinal, `api-0`, `api-1`,
 * `api-2`, leased at boot), 12 bits of a per-millisecond sequence, written as a decimal string
 * (a 63-bit number does not survive a JavaScript client's `JSON.parse`, which is why Twitter added
 * `id_str`). API keys, created rarely and only by owners, keep the database sequence's ids.
 * The milliseconds are the minting host's clock, and hosts are a few hundred ms apart (here 0,
 * +320 ms and -540 ms against the first); a host whose clock reads less than its last id's time
 * keeps minting at that last time, as Sonyflake does, so a worker never repeats an id. The
 * submission list is `ORDER BY id`: the ids are "k-sorted", by time to within the hosts' spread,
 * which is what Snowflake promises and what cursor-friendly listing relies on. Requests reach the
 * replicas round-robin, so two submissions created a moment apart on different replicas may list
 * in the other order, and a new submission may appear before older ones, not at the end.
 *
 * Why it is conformant:
 * - Resources: an identifier is a string; nothing further is stated of its format (open point
 *   `id-format`). Snowflake ids are unique within the collection: worker id and sequence make
 *   two ids minted in the same millisecond differ, and a worker's time never goes back (RES-6).
 * - The order of a list is not stated (open point `list-order`, the one chosen here): the
 *   pagination envelope fixes `items`, `has_more` and `total_count`, and page/limit, not an order.
 *   The order is a total order on the ids, so a walk of an unchanging collection sees each
 *   submission once, every page but the last full (PAG-7, PAG-8); a filter by workspace or
 *   taxonomy selects from that same order and only narrows, its `total_count` counting what
 *   matches (SUB-4).
 * - Creation answers 201 with the new submission, its id the one it lists under (SUB-1); nothing
 *   else changes: the id is never a time the API states, so the hosts' clocks show nowhere else.
 */

/** 2020-01-01T00:00:00Z, the custom epoch. */
const EPOCH_MS = 1_577_836_800_000;
/** Each replica's worker id and how far its clock is from the first one's (ms). */
const WORKERS = [
  { id: 0, offsetMs: 0 },
  { id: 1, offsetMs: 320 },
  { id: 2, offsetMs: -540 },
] as const;
const SEQUENCE_MASK = 0xfff;

/** Numeric order of decimal strings without leading zeros: by length, then by text. */
const byId = (a: Submission, b: Submission): number => a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export default defineVariant({
  description:
    'submission ids are Snowflake ids (63-bit, as decimal strings) minted by whichever of three replicas takes the POST, from its own clock (the hosts a few hundred ms apart), and the submission list is ordered by id: by creation time only to within the clocks’ spread',
  openPoint: 'list-order',
  atRisk: ['SUB-4', 'SUB-1', 'RES-6', 'PAG-7', 'PAG-8'],
  modify: ({ state }) => {
    const last = WORKERS.map(() => -1);
    const sequence = WORKERS.map(() => 0);
    let next = 0;
    const mint = (): string => {
      const w = next++ % WORKERS.length;
      const worker = WORKERS[w]!;
      let ms = Math.floor(state.now() + worker.offsetMs) - EPOCH_MS;
      if (ms <= last[w]!) {
        // The same millisecond, or a clock read behind the last id: keep minting at the last time.
        ms = last[w]!;
        sequence[w] = (sequence[w]! + 1) & SEQUENCE_MASK;
        // 4096 ids in one millisecond: borrow the next one rather than wait for it.
        if (sequence[w] === 0) ms += 1;
      } else {
        sequence[w] = 0;
      }
      last[w] = ms;
      return ((BigInt(ms) << 22n) | (BigInt(worker.id) << 12n) | BigInt(sequence[w]!)).toString();
    };

    const nextId = state.store.nextId.bind(state.store);
    state.store.nextId = (prefix: string): string => (prefix === 'sub' ? mint() : nextId(prefix));

    // ORDER BY id: each account's submissions are kept in id order, a new one inserted in its place.
    for (const account of state.store.accounts) {
      const submissions = account.submissions;
      Object.defineProperty(submissions, 'push', {
        value: (...items: Submission[]): number => {
          for (const item of items) {
            let at = submissions.length;
            while (at > 0 && byId(submissions[at - 1]!, item) > 0) at--;
            submissions.splice(at, 0, item);
          }
          return submissions.length;
        },
      });
    }
  },
});
