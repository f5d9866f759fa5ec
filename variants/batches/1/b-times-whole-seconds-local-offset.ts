import { defineVariant } from '../../variant.js';
import type { ApiKeyRecord, Submission } from '../../../reference/store.js';

/*
 * Where this happens in the field: a Go service on MySQL whose tables were written by hand-written
 * migrations (golang-migrate, Flyway) with plain `DATETIME` columns: no fractional-seconds
 * precision, so MySQL (5.6.4 and later, without TIME_TRUNCATE_FRACTIONAL) ROUNDS every written time
 * to the nearest whole second. The driver reads times back in the container's local zone
 * (`parseTime=true&loc=Local`, TZ=Asia/Kolkata for a team in Bangalore) and `encoding/json` writes
 * `time.Time` as RFC 3339 with the zone's offset and no fraction when there is none:
 * `2026-11-22T19:15:13+05:30`. Teams ship this because nobody notices until a client compares
 * strings; the values are correct instants.
 * Here: an API key's created and last-use times, and a submission's creation time, are stored
 * rounded to the second and written with the fixed +05:30 offset (India has no daylight saving,
 * so the offset never changes and string order still follows time order).
 *
 * Why it is conformant: "An API key has a name and a last-use time" (Resources, Other resources)
 * and "Listing keys returns each key's name and last-use time" (Details and open points): the
 * format, precision and zone of that time are not stated; RFC 3339 offsets denote the same
 * instant as `Z`. The last-use time is still written on every authenticated use (Authentication),
 * so it moves forward whenever a later use falls in a later second. The submission's fields are
 * "not shown". Nothing the document fixes changes: HTTP `Date` stays an IMF-fixdate in GMT, and
 * `X-RateLimit-Reset` stays a Unix time (Limits). The records' `data.recorded_at` is customer
 * payload ("inner keys are not fixed") and is left as it was sent.
 * Reading taken: "last-use time" is an instant, of any precision the service keeps; a value rounded
 * to the nearest second (so up to half a second after the request that set it) is that time.
 */

/** +05:30: Asia/Kolkata, which has no daylight saving time. */
const OFFSET_MINUTES = 5 * 60 + 30;
const OFFSET_TEXT = '+05:30';

/** The time as a `DATETIME` column keeps it (rounded to the second) and the service writes it (local offset). Idempotent. */
export function asStored(time: string): string {
  const ms = Date.parse(time);
  if (!Number.isFinite(ms)) return time;
  const rounded = Math.round(ms / 1000) * 1000;
  return `${new Date(rounded + OFFSET_MINUTES * 60_000).toISOString().slice(0, 19)}${OFFSET_TEXT}`;
}

/** Makes a key's time columns behave as the DATETIME columns do: whatever is written is rounded and zoned on write. */
function keepTimesAsColumns(key: ApiKeyRecord): void {
  (key as { createdAt: string }).createdAt = asStored(key.createdAt);
  let lastUsedAt: string | null = key.lastUsedAt === null ? null : asStored(key.lastUsedAt);
  Object.defineProperty(key, 'lastUsedAt', {
    configurable: true,
    enumerable: true,
    get: (): string | null => lastUsedAt,
    set: (value: string | null) => {
      lastUsedAt = value === null ? null : asStored(value);
    },
  });
}

export default defineVariant({
  description:
    "stores key and submission times in second-precision DATETIME columns (rounded to the nearest second) and writes them in the server's zone, e.g. 2026-11-22T19:15:13+05:30",
  openPoint: 'last-use-format',
  atRisk: ['KEY-3', 'KEY-7', 'SUB-4'],
  modify: ({ state }) => {
    const { store } = state;
    // Keys that exist before the variant (the accounts' first keys), then every key made later.
    for (const account of store.accounts) for (const key of account.keys.values()) keepTimesAsColumns(key);
    const create = store.createKey.bind(store);
    store.createKey = (account, name) => {
      const created = create(account, name);
      keepTimesAsColumns(created.record);
      return created;
    };
    // A submission's row is written (and its created_at rounded) before the 201 is sent from it.
    for (const account of store.accounts) {
      const list = account.submissions;
      const push = list.push.bind(list);
      list.push = (...items: Submission[]): number => {
        for (const item of items) item.created_at = asStored(item.created_at);
        return push(...items);
      };
    }
  },
});
