import { defineMutant } from '../../mutant.js';
import { notFound } from '../../../reference/errors.js';
import type { Account, ApiKeyRecord } from '../../../reference/store.js';
import { itemPrefix, pathOf } from '../../support.js';

/** The new typed id of a key: `key:` and the old id's tail. */
const typedId = (id: string): string => `key:${id.replace(/^key_/, '')}`;

/*
 * How this happens: the platform moves to typed ids, and API keys are now `key:0001a1b2c3d4`.
 * The revocation endpoint sits behind the new audit middleware, which records the id of the key
 * being revoked before the router runs and hands it on to the handler; the middleware takes it
 * from the raw request line (`url.split('/').pop()`), so a client that percent-encodes the colon,
 * as every URL-template library does (`key%3A0001a1b2c3d4`), asks to revoke a key that does not
 * exist and gets 404, and the key stays live. The dashboard and the curl commands in the docs put
 * the colon in the path raw, which RFC 3986 allows in a path segment, and those revocations work;
 * the SDK's own tests mock the HTTP layer.
 */
export default defineMutant({
  description:
    'Key ids contain a colon (key:...), and DELETE looks the key up by the raw, still percent-encoded path segment, so a revocation whose id was encoded as key%3A... answers 404 and leaves the key live.',
  // The writer declared KEY-6 too. Its check needs a deletion that succeeded, and here the deletion
  // answered 404: KEY-5 judges that (caught), and KEY-6 is left unjudged, not failed twice.
  breaks: { 'KEY-5': 'fail' },
  collateral: ['AUTH-3', 'KEY-6'],
  modify: ({ app, state }) => {
    const { store } = state;
    /** Re-keys an account's keys by their typed ids, keeping the map's order. */
    const retype = (account: Account, only?: ApiKeyRecord): void => {
      const keys = [...account.keys.values()];
      account.keys.clear();
      for (const key of keys) {
        if ((!only || key === only) && key.id.startsWith('key_')) (key as { id: string }).id = typedId(key.id);
        account.keys.set(key.id, key);
      }
    };
    for (const account of store.accounts) retype(account);
    const create = store.createKey.bind(store);
    store.createKey = (account, name) => {
      const created = create(account, name);
      retype(account, created.record);
      return created;
    };

    const prefix = itemPrefix(state.profile.paths.apiKey);
    if (!prefix) return;
    app.addHook('preHandler', async (req, reply) => {
      const path = pathOf(req);
      if (req.method !== 'DELETE' || !path.startsWith(prefix) || path.length === prefix.length) return;
      // The audit middleware's id: the last segment of the raw URL, not decoded.
      const raw = path.split('/').pop()!;
      const key = req.account.keys.get(raw);
      if (!key || key.revokedAtMs !== null) return notFound(reply, 'API key');
    });
  },
});
