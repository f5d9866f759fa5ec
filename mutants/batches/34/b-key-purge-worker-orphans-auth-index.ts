import { defineMutant } from '../../mutant.js';
import { beforeReference } from '../../support.js';
import type { Account } from '../../../reference/store.js';

/*
 * How this happens: for secret hygiene, deleting a key now publishes `api_key.revoked`, and a
 * key-hygiene worker hard-deletes the key's row (hash included) a moment later instead of keeping
 * a revoked row forever. The authenticator looks a token up in two steps: its hash in the auth
 * index (hash -> key id, filled at creation), then the key's row by id, then `row.revoked_at`.
 * Removing the index entry used to be done by the delete handler; the refactor that moved the
 * clean-up into the worker moved only the row deletion. So a deleted key's hash still resolves to
 * an id whose row is gone, the authenticator dereferences the missing row, and the request fails
 * with an unhandled TypeError: 500 `api_error` where a revoked key must get 401. Deleting the key
 * again is still 404 and it is gone from the list, which is what the team's tests checked.
 */
export default defineMutant({
  description:
    'Deleted API keys are now purged by a background worker right after deletion; a request with a purged key fails with 500 api_error instead of 401 authentication_error.',
  breaks: { 'KEY-5': 'fail', 'AUTH-3': 'fail', 'GEN-3': 'warn' },
  collateral: ['AUTH-8'],
  modify: (reference) => {
    const { app, state } = reference;
    const { store } = state;
    const keyPath = state.profile.paths.apiKey;
    if (!keyPath) return;
    const keyRoute = keyPath.replace('{id}', ':id');
    /** The worker's queue: keys deleted, not yet purged. */
    const queue: { account: Account; id: string }[] = [];
    /** Ids whose row the worker has deleted (their hash stays in the auth index). */
    const purged = new Set<string>();
    // The delete handler publishes the event once the key is revoked.
    app.addHook('onSend', async (req, reply, payload) => {
      if (req.method === 'DELETE' && reply.statusCode === 204 && req.routeOptions.url === keyRoute && req.account) {
        const id = (req.params as { id?: string }).id;
        if (id) queue.push({ account: req.account, id });
      }
      return payload;
    });
    // The worker picks the event up before the next request is served: it deletes the row only.
    beforeReference(reference, () => {
      for (const job of queue.splice(0)) {
        job.account.keys.delete(job.id);
        purged.add(job.id);
      }
    });
    const lookup = store.findKey.bind(store);
    store.findKey = (token) => {
      const indexed = lookup(token); // the auth index still maps the hash to the key's id
      if (indexed && purged.has(indexed.id)) {
        // ...whose row is gone: `row.revoked_at` on undefined.
        throw new TypeError("Cannot read properties of undefined (reading 'revoked_at')");
      }
      return indexed;
    };
  },
});
