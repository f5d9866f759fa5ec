import type { ApiKeyRecord } from '../reference/store.js';
import { defineMutant } from './mutant.js';

/**
 * Key ids from a counter kept as "the highest id in use", which a deletion of the newest key steps
 * back, and revocation by a deny list of ids: a key created right after the newest key was deleted
 * is given the deleted key's id, and is born revoked.
 */
export default defineMutant({
  description: 'a key created right after the newest key was deleted gets the deleted id, which is on the deny list of revoked ids: it never authenticates',
  breaks: { 'KEY-1': 'fail' },
  collateral: ['KEY-2', 'KEY-3', 'KEY-5', 'KEY-6', 'KEY-7', 'RATE-3', 'RATE-5', 'RATE-6'],
  modify: ({ app, state }) => {
    let counter = 1000;
    const revoked = new Set<string>();
    const createKey = state.store.createKey.bind(state.store);
    state.store.createKey = (account, name) => {
      const created = createKey(account, name);
      account.keys.delete(created.record.id);
      (created.record as { id: string }).id = `key_${++counter}`;
      account.keys.set(created.record.id, created.record as ApiKeyRecord);
      return created;
    };
    app.addHook('onResponse', async (req, reply) => {
      if (req.method !== 'DELETE' || reply.statusCode >= 300) return;
      const id = decodeURIComponent(req.url.split('?')[0]!.split('/').pop() ?? '');
      revoked.add(id);
      if (id === `key_${counter}`) counter--;
    });
    app.addHook('onRequest', async (req, reply) => {
      if (req.apiKey && revoked.has(req.apiKey.id)) {
        return reply.code(401).send({ error: { type: 'authentication_error', code: null, message: 'The API key has been revoked.', param: null, path: null } });
      }
    });
  },
});
