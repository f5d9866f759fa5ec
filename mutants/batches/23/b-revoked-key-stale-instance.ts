import { defineMutant } from '../../mutant.js';

/** How long the second instance keeps serving its snapshot of the key table. */
const SNAPSHOT_MS = 60_000;

/*
 * How this happens: to keep the database out of every request's path, each instance holds an
 * in-memory snapshot of the key table and reloads it once a minute. The instance that handles a
 * DELETE drops the key from its own snapshot at once, and everyone tested against a single
 * instance. In production two instances answer in turn behind the load balancer: the request
 * right after the deletion goes to the other instance, whose snapshot still holds the key, so it
 * succeeds; the one after that is refused, and so on until the other instance reloads.
 */
export default defineMutant({
  description:
    'For a minute after a key is deleted, every other request made with it (starting with the very next one) is answered by an instance whose key snapshot is stale and succeeds instead of 401.',
  breaks: { 'KEY-5': 'fail' },
  collateral: ['AUTH-3', 'AUTH-8'],
  modify: (reference) => {
    const { store } = reference.state;
    const find = store.findKey.bind(store);
    /** Requests made with each deleted key since its deletion, by key id. */
    const usesSinceDeletion = new Map<string, number>();
    store.findKey = (token) => {
      const key = find(token);
      if (!key || key.revokedAtMs === null || reference.state.now() - key.revokedAtMs >= SNAPSHOT_MS) return key;
      const uses = usesSinceDeletion.get(key.id) ?? 0;
      usesSinceDeletion.set(key.id, uses + 1);
      if (uses % 2 === 1) return key; // the instance that handled the DELETE: refused
      return { ...key, revokedAtMs: null }; // the other instance's snapshot, from before the DELETE
    };
  },
});
