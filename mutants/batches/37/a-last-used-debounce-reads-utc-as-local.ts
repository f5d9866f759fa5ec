import { defineMutant } from '../../mutant.js';
import type { ApiKeyRecord } from '../../../reference/store.js';

/** The zone the vendor's application hosts are set to (the head office's). */
const HOST_ZONE = 'America/Chicago';
/** A key's last-use time is written at most this often. */
const DEBOUNCE_MS = 5 * 60_000;

/** How far `zone`'s wall clock is ahead of UTC at the instant `ms` (negative west of Greenwich). */
function zoneOffsetMs(ms: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return wall - Math.floor(ms / 1000) * 1000;
}

/** The legacy parser: drops any zone designator and reads the wall time in the host's zone. */
function parseAsLocal(stamp: string): number {
  const wall = Date.parse(`${stamp.replace(/(Z|[+-]\d{2}:?\d{2})$/, '')}Z`);
  return wall - zoneOffsetMs(wall, HOST_ZONE);
}

/*
 * How this happens: writing last_used_at on every authenticated request was the hottest write in
 * the database, so it is debounced: authentication skips the write when the key's last use (or,
 * for a key never used, its creation) is less than five minutes old. The staleness test predates
 * the UTC migration and goes through the old helper that parsed the naive local datetimes the
 * service used to store, dropping any zone designator and reading the wall time in the host's zone.
 * The migration made the stored times UTC ("...Z"); on the production hosts, set to the head
 * office's America/Chicago, the helper now reads every stored time five or six hours late, so the
 * last use always looks fresh and is never written again: a new key shows no last use at all, and
 * an old one keeps the time of its last use before the release. On developers' machines and in CI,
 * which run in UTC, the helper is exact and the debounce behaves; and in manual tests nobody expects
 * the time to move within five minutes anyway.
 */
export default defineMutant({
  description:
    "The five-minute debounce of last-use writes parses the stored UTC time as America/Chicago wall time, so it always finds the key's last use (or creation) recent and never records a use.",
  breaks: { 'KEY-7': 'warn' },
  collateral: ['KEY-3'],
  modify: ({ state }) => {
    const { store } = state;
    const debounce = (key: ApiKeyRecord): void => {
      let stored = key.lastUsedAt;
      Object.defineProperty(key, 'lastUsedAt', {
        enumerable: true,
        configurable: true,
        get: () => stored,
        set: (value: string | null) => {
          if (value !== null && Date.parse(value) - parseAsLocal(stored ?? key.createdAt) < DEBOUNCE_MS) return;
          stored = value;
        },
      });
    };
    for (const account of store.accounts) for (const key of account.keys.values()) debounce(key);
    const create = store.createKey.bind(store);
    store.createKey = (account, name) => {
      const created = create(account, name);
      debounce(created.record);
      return created;
    };
  },
});
