import { defineMutant } from '../../mutant.js';

/** How long the billing worker takes to attach a new key to the plan's seats. */
const SEAT_SYNC_MS = 2000;

/*
 * How this happens: paid plans are sold with a number of API-key "seats", and the gateway must not
 * accept a key that billing does not know about. Key creation therefore stores the key as pending
 * and enqueues a job for the billing service; the key is activated when the job comes back, a
 * second or two later. Meanwhile the gateway answers the new key with the ordinary "invalid or
 * revoked" 401. The team's integration tests create a key through a helper that retries on 401
 * until the key works, so nobody sees that a key is not usable on the very first request; keys
 * that existed before the change (seeded, migrated) are unaffected.
 */
export default defineMutant({
  description:
    'A key created through the API is answered 401 authentication_error for its first two seconds, until the billing seat sync activates it, so a new key does not authenticate on its first request.',
  breaks: { 'KEY-2': 'warn' },
  collateral: ['KEY-1', 'KEY-5', 'KEY-7', 'RATE-6', 'RATE-8'],
  modify: (reference) => {
    const { state } = reference;
    const { store } = state;
    const activeFrom = new Map<string, number>();
    const create = store.createKey.bind(store);
    store.createKey = (account, name) => {
      const created = create(account, name);
      activeFrom.set(created.record.id, state.now() + SEAT_SYNC_MS);
      return created;
    };
    const find = store.findKey.bind(store);
    store.findKey = (token) => {
      const key = find(token);
      if (key && state.now() < (activeFrom.get(key.id) ?? 0)) return null;
      return key;
    };
  },
});
