import { defineMutant } from '../../mutant.js';
import type { ApiKeyRecord } from '../../../reference/store.js';

/*
 * How this happens: writing `last_used_at` on every authenticated request was a hot row update
 * per request, so a developer buffers usage in memory and flushes it to the keys table from a
 * periodic job ("every 15 minutes is plenty for a 'last used' column"). The key list reads the
 * table, not the buffer: for the first quarter of an hour after the process starts (and between
 * flushes afterwards) a key's last-use time stays where it was, null for a new key, however often
 * the key is used.
 */
const FLUSH_MS = 15 * 60_000;

export default defineMutant({
  description:
    "A key's last-use time is buffered in memory and written to the key record only every 15 minutes, so the key list keeps showing the old value (null for a new key) after the key is used.",
  breaks: { 'KEY-7': 'warn' },
  collateral: ['KEY-3'],
  modify: (reference) => {
    const { state } = reference;
    const { store } = state;
    let lastFlush = state.now();
    const pending = new Map<ApiKeyRecord, string | null>();
    const persisted = new WeakMap<ApiKeyRecord, string | null>();
    const flushIfDue = (): void => {
      const now = state.now();
      if (now - lastFlush < FLUSH_MS) return;
      lastFlush = now;
      for (const [key, value] of pending) persisted.set(key, value);
      pending.clear();
    };
    const buffer = (record: ApiKeyRecord): void => {
      persisted.set(record, record.lastUsedAt);
      Object.defineProperty(record, 'lastUsedAt', {
        get: () => {
          flushIfDue();
          return persisted.get(record) ?? null;
        },
        set: (value: string | null) => {
          pending.set(record, value);
          flushIfDue();
        },
        enumerable: true,
        configurable: true,
      });
    };
    // Keys that exist already (the seed's) and every key created from now on.
    for (const account of store.accounts) for (const key of account.keys.values()) buffer(key);
    const create = store.createKey.bind(store);
    store.createKey = (account, name) => {
      const created = create(account, name);
      buffer(created.record);
      return created;
    };
  },
});
