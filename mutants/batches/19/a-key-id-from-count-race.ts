import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: key ids were made readable as `key_<n>`, n being the account's key count plus
 * one, read as the request comes in. The secret is then hashed with `await scrypt(...)` (a secure
 * hash, on the thread pool) and the record is written afterwards with `keys.set(id, record)` into
 * the account's key table. Sequential creations get distinct ids. Two creations of one account in
 * flight at once read the same count and get the same id, and the second write replaces the first
 * in the key table: both responses show the same id, the first key still authenticates (its hash
 * index entry is separate) but is missing from the key list, and deleting its id revokes the other
 * key while it keeps working. The two keys also share one rate bucket, which is keyed by id.
 */
export default defineMutant({
  description:
    'Key ids come from the account key count read before an awaited hash: two key creations in flight at once get the same id, the first key vanishes from the list, and deleting it by id revokes the other key instead.',
  breaks: { 'KEY-3': 'fail', 'KEY-5': 'fail' },
  collateral: ['KEY-6', 'KEY-7', 'RATE-6', 'RES-6'],
  provokedBy: ['KEY'],
  modify: (reference) => {
    const { store } = reference.state;
    /** The count the request now creating a key read before its hash. */
    let counted: number | null = null;
    const faithful = store.createKey.bind(store);
    store.createKey = (account, name) => {
      const created = faithful(account, name);
      if (counted === null) return created;
      const id = `key_${String(counted + 1).padStart(4, '0')}`;
      counted = null;
      account.keys.delete(created.record.id);
      (created.record as { id: string }).id = id;
      account.keys.set(id, created.record);
      return created;
    };
    reference.app.addHook('preHandler', async (req) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/api_keys' || !req.account) return;
      const seen = req.account.keys.size;
      // The scrypt of the secret: other creations of the account read the same count meanwhile.
      await new Promise<void>((resolve) => setImmediate(resolve));
      // From here to the handler's write nothing else runs (microtasks only).
      counted = seen;
    });
  },
});
