import { defineMutant } from '../../mutant.js';

/*
 * How this happens: key creation writes to the primary database, but the authentication
 * middleware (the hottest query of the service) was moved to a read replica to take load off the
 * primary. Replication lags about a second, so a key used straight after its creation is not found
 * yet and gets 401; a moment later it works. Keys that already existed are unaffected, and any
 * client that retries after a second never notices.
 */
const REPLICA_LAG_MS = 1000;

export default defineMutant({
  description:
    'An API key created through the API is looked up on a lagging read replica: for about a second after its creation it is answered 401 authentication_error, then it works.',
  breaks: { 'KEY-2': 'warn' },
  collateral: ['KEY-1', 'KEY-5', 'KEY-7', 'RATE-6', 'RATE-8'],
  modify: (reference) => {
    const { state } = reference;
    const { store } = state;
    const createdAt = new Map<string, number>();
    const create = store.createKey.bind(store);
    store.createKey = (account, name) => {
      const created = create(account, name);
      createdAt.set(created.record.id, state.now());
      return created;
    };
    const find = store.findKey.bind(store);
    store.findKey = (token) => {
      const key = find(token);
      if (!key) return null;
      const at = createdAt.get(key.id);
      if (at === undefined) return key;
      if (state.now() - at < REPLICA_LAG_MS) return null; // not on the replica yet
      createdAt.delete(key.id);
      return key;
    };
  },
});
