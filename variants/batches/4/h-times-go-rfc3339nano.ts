import { defineVariant } from '../../variant.js';
import type { Account, ApiKeyRecord, Submission } from '../../../reference/store.js';

/*
 * Where this happens in the field: a Go back end on PostgreSQL, one of the most common stacks for
 * APIs like this one. Times are `timestamptz` columns, which keep microseconds; pgx scans them into
 * `time.Time` (UTC here), and `encoding/json` writes a `time.Time` with `time.RFC3339Nano`, whose
 * fraction is "as many digits as needed": trailing zeros are trimmed and a whole second has no
 * fraction at all. So the same API writes `2026-03-01T12:34:56.123456Z`, `2026-03-01T12:34:56.1234Z`,
 * `2026-03-01T12:34:56.5Z` and `2026-03-01T12:34:56Z` side by side: microsecond precision, variable
 * length (a well-known trait of Go APIs: such strings do not sort as text). Here every time the
 * service writes is so: a key's last-use time and creation time, and a submission's creation time.
 * The microseconds are the server clock's millisecond plus the sub-millisecond part of the
 * process's high-resolution clock, never going back from one write to the next.
 *
 * Why it is conformant: the document gives an API key "a name and a last-use time" (Other
 * resources) and shows neither the member's format nor its precision (open point last-use-format);
 * creation times and the submission's fields are not shown at all. Each value is an RFC 3339
 * date-time (section 5.6: `time-secfrac = "." 1*DIGIT`, any number of digits, or none) in UTC,
 * so any RFC 3339 or ISO 8601 reader gets the same instant, within the millisecond, as the
 * reference's `toISOString()` would have written. The reading taken: "a last-use time" is a point
 * in time, compared as a time and not as text. Last-use times still move forward after a key is used
 * (KEY-7: every write is later than the one before), a never-used key still shows null, and
 * member names, paths and statuses are the reference's.
 */

/** The sub-millisecond part of the process's clock, in microseconds (0 to 999). */
const subMillisecondMicros = (): number => Number((process.hrtime.bigint() / 1000n) % 1000n);

/** Go's RFC3339Nano of a UTC time in microseconds since the epoch: the fraction's trailing zeros trimmed. */
function rfc3339Nano(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const whole = new Date(ms).toISOString().slice(0, 19);
  const fraction = String(micros - Math.floor(ms / 1000) * 1_000_000)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return `${whole}${fraction === '' ? '' : `.${fraction}`}Z`;
}

export default defineVariant({
  description:
    "writes every time (a key's last-use and creation times, a submission's creation time) as Go's RFC3339Nano of a PostgreSQL timestamptz: UTC, microseconds, trailing zeros of the fraction trimmed, no fraction on a whole second",
  openPoint: 'last-use-format',
  atRisk: ['KEY-3', 'KEY-7', 'SUB-4'],
  modify: ({ state }) => {
    const { store } = state;
    let last = 0;
    /** The database's time for an instant the reference wrote in milliseconds: microseconds, never going back. */
    const stamp = (iso: string): string => {
      const ms = Date.parse(iso);
      last = Math.max(Math.floor(ms) * 1000 + subMillisecondMicros(), last + 1);
      return rfc3339Nano(last);
    };

    /** The key's times as the database returns them; authentication's writes go through the column. */
    const asStored = (record: ApiKeyRecord): void => {
      (record as { createdAt: string }).createdAt = stamp(record.createdAt);
      let lastUsedAt = record.lastUsedAt === null ? null : stamp(record.lastUsedAt);
      Object.defineProperty(record, 'lastUsedAt', {
        configurable: true,
        enumerable: true,
        get: () => lastUsedAt,
        set: (value: string | null) => {
          lastUsedAt = value === null ? null : stamp(value);
        },
      });
    };
    const asStoredSubmission = (submission: Submission): void => {
      submission.created_at = stamp(submission.created_at);
    };
    const watch = (account: Account): void => {
      for (const key of account.keys.values()) asStored(key);
      for (const submission of account.submissions) asStoredSubmission(submission);
      // The route builds a submission and pushes it before it answers with it: the row as inserted.
      const submissions = account.submissions;
      submissions.push = (...items: Submission[]) => {
        items.forEach(asStoredSubmission);
        return Array.prototype.push.apply(submissions, items);
      };
    };
    for (const account of store.accounts) watch(account);

    const create = store.createKey.bind(store);
    store.createKey = (account: Account, name: string) => {
      const created = create(account, name);
      asStored(created.record);
      return created;
    };
  },
});
