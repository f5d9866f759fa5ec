import { defineMutant } from '../../mutant.js';

/*
 * How this happens: key expiry dates are added. The migration adds an `expires_at` column and
 * back-fills the existing keys with the "never" sentinel 9999-12-31, so every key in staging keeps
 * working. The create endpoint stores `body.expires_at ?? null`, and the new expiry guard, written
 * in the belief that every key has an expiry since the migration, reads
 * `new Date(row.expires_at!)`. A key created without `expires_at` (any client that never heard of
 * the feature) has null there, which JavaScript reads as 1970-01-01: the key is born expired. The
 * feature's tests always created keys with an explicit expiry.
 */
export default defineMutant({
  description:
    'API keys created without an explicit expires_at are stored with a null expiry, which the expiry check reads as 1970-01-01, so every newly created key is refused with 401 "key expired".',
  breaks: { 'KEY-1': 'fail', 'KEY-2': 'warn' },
  collateral: ['KEY-5', 'KEY-6', 'KEY-7', 'RATE-5', 'RATE-6', 'AUTH-8'],
  modify: (reference) => {
    const { store } = reference.state;
    /** The `expires_at` column, by key id. */
    const expiresAt = new Map<string, string | null>();
    // The migration back-filled the keys that existed before it.
    for (const account of store.accounts) {
      for (const key of account.keys.values()) expiresAt.set(key.id, '9999-12-31T23:59:59.000Z');
    }
    const create = store.createKey.bind(store);
    store.createKey = (account, name) => {
      const created = create(account, name);
      // The create endpoint stores the body's expires_at, null when the client sent none.
      expiresAt.set(created.record.id, null);
      return created;
    };
    // After the reference's authentication (registered before this hook): the expiry guard.
    reference.app.addHook('onRequest', async (req, reply) => {
      const key = req.apiKey;
      if (key === undefined || key === null) return; // not authenticated: already answered
      const column = expiresAt.get(key.id);
      if (column === undefined) return;
      if (new Date(column!).getTime() > reference.state.now()) return;
      return reply.code(401).send({
        error: { type: 'authentication_error', code: 'key_expired', message: 'The API key has expired.', param: null, path: null },
      });
    });
  },
});
