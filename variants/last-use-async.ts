import { defineVariant } from './variant.js';
import type { ApiKeyRecord } from '../reference/store.js';

/** Delay between a use of a key and the moment its last-use time shows it: 1 to 3 seconds. */
const WRITE_DELAY_MS = { min: 1000, max: 3000 } as const;

/**
 * The last-use time is written by a background job, 1 to 3 s after the use: a key's listed
 * last-use time shows a use only once the job has run (null until the first one has). The value
 * written is the time of the use.
 */
export default defineVariant({
  description: "writes a key's last-use time asynchronously, 1 to 3 s after the use (the key list shows the older value, or null, meanwhile)",
  openPoint: 'last-use-timing',
  atRisk: ['KEY-7', 'KEY-3'],
  modify: ({ state }) => {
    const deferred = (key: ApiKeyRecord) => {
      let shown = key.lastUsedAt;
      // The jobs not yet run, each with the server time at which it has: read on the server's clock
      // (the simulated one, where it runs on it), not a timer's.
      let jobs: { readonly value: string | null; readonly at: number }[] = [];
      Object.defineProperty(key, 'lastUsedAt', {
        configurable: true,
        enumerable: true,
        get: () => {
          const now = state.now();
          for (const { value } of jobs.filter((job) => job.at <= now)) {
            // Jobs may finish out of order: a later write never takes the time back.
            if (value === null || shown === null || Date.parse(value) > Date.parse(shown)) shown = value;
          }
          jobs = jobs.filter((job) => job.at > now);
          return shown;
        },
        set: (value: string | null) => {
          const delay = WRITE_DELAY_MS.min + Math.random() * (WRITE_DELAY_MS.max - WRITE_DELAY_MS.min);
          jobs.push({ value, at: state.now() + delay });
        },
      });
    };
    for (const account of state.store.accounts) for (const key of account.keys.values()) deferred(key);
    const createKey = state.store.createKey.bind(state.store);
    state.store.createKey = (account, name) => {
      const created = createKey(account, name);
      deferred(created.record);
      return created;
    };
  },
});
