import { defineVariant } from './variant.js';
import type { Account, ApiKeyRecord } from '../reference/store.js';

/*
 * Where this happens in the field: API keys kept in DynamoDB (or Cassandra, or Cosmos DB with a
 * lazily indexed container), the usual layout of serverless back ends: the key table's partition
 * key is the hash of the token, so authentication is one strongly consistent GetItem on the base
 * table (a new key works at once, a deleted one stops at once); "list this account's keys" is a
 * Query on a global secondary index keyed by account id. GSI reads are eventually consistent by
 * design (DynamoDB offers no strongly consistent read on a GSI): the table propagates each write
 * to the index asynchronously, typically within a fraction of a second to about a second. So for up to a second, a key just created is not
 * yet in the list, a key just deleted is still in it, and the last-use time written by a request is
 * not yet the one the list shows (the projection carries name, creation and last-use times). Here
 * the index shows each key as it was one second ago (LAG_MS); keys that existed before the server
 * started are indexed from the start. Deleting goes to the base table: a second delete is 404 at
 * once.
 *
 * Why it is conformant: the document says how soon each key operation takes effect only for
 * revocation: "Deleting a key revokes it; the token stops working immediately" (Details and open
 * points), and that holds: the very next request with a deleted key is 401 (KEY-5), a new key
 * authenticates on its first request (KEY-1, KEY-2), a second delete is 404 `not_found_error`. For
 * the list the document says what it returns (each key's name and last-use time, never the secret)
 * and not how fresh it is; the catalogue itself allows a key 10 s to take effect (KEY-1), and asks
 * only that a deleted key disappear from the list (KEY-6) and that the last-use time move forward
 * after use (KEY-7), not on the very next request, where KEY-5 says "very next". The reading taken:
 * a key list that reflects each change within one second is a list of the account's keys; every
 * response is one consistent snapshot (its items, `has_more` and `total_count` agree, Pagination
 * envelope). A walk of the key list started within a second of a change of its own keys may see the
 * change arrive between pages, as with any collection that is still changing (PAG-8 speaks of an
 * unchanging one). Nothing else differs: names, member names, paths, statuses and secrets are the
 * reference's.
 */

/** How far the account-id index runs behind the key table. */
const LAG_MS = 1000;

export default defineVariant({
  description:
    'the key list is read from an eventually consistent secondary index (a DynamoDB GSI) that runs up to one second behind the key table: new keys, deletions and last-use times reach the list within a second; authentication and deletion read the table itself',
  openPoint: 'key-propagation',
  atRisk: ['KEY-3', 'KEY-6', 'KEY-7', 'PAG-7', 'PAG-8'],
  modify: ({ state, behaviour }) => {
    const { store } = state;
    /** When each key written after the start reached the table; keys absent here were indexed before the start. */
    const writtenAt = new WeakMap<object, number>();

    /**
     * The key's last-use time becomes two: the table's (written by authentication) and the
     * index's, which shows the table's value as it was LAG_MS ago. The key list is the only reader
     * of the member, so the record answers with the index's value.
     */
    const indexLastUse = (record: ApiKeyRecord): void => {
      /** The table's writes of the last LAG_MS, oldest first, after the value the index already shows. */
      const pending: { at: number; value: string | null }[] = [];
      let indexed = record.lastUsedAt;
      Object.defineProperty(record, 'lastUsedAt', {
        configurable: true,
        enumerable: true,
        get: () => {
          const due = state.now() - LAG_MS;
          while (pending.length > 0 && pending[0]!.at <= due) indexed = pending.shift()!.value;
          return indexed;
        },
        set: (value: string | null) => {
          pending.push({ at: state.now(), value });
        },
      });
    };
    for (const account of store.accounts) for (const key of account.keys.values()) indexLastUse(key);

    const create = store.createKey.bind(store);
    store.createKey = (account: Account, name: string) => {
      const created = create(account, name);
      writtenAt.set(created.record, state.now());
      indexLastUse(created.record);
      return created;
    };

    // The list shows what the index holds: keys written at least LAG_MS ago, and not deleted LAG_MS ago.
    behaviour.keyListed = (key) => {
      const due = state.now() - LAG_MS;
      const written = writtenAt.get(key);
      if (written !== undefined && written > due) return false;
      return key.revokedAtMs === null || key.revokedAtMs > due;
    };
  },
});
