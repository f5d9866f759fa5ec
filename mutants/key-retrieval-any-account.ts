import { notFound } from '../reference/errors.js';
import { route } from '../reference/routes/list.js';
import { defineMutant } from './mutant.js';

/**
 * A key can be read by its id, and the retrieval looks the id up among every account's keys: the
 * list and the deletion check the account, the retrieval does not. Written from a fault of a hidden
 * batch (an operation crossed with the other account).
 */
export default defineMutant({
  description: "answers GET on the key path with any account's key, the retrieval not checking the key's account",
  breaks: { 'AUTH-6': 'fail' },
  modify: (reference) => {
    const { profile, store } = reference.state;
    const { apiKey } = profile.paths;
    const fields = profile.apiKeyFields;
    if (!apiKey) return;
    reference.app.get<{ Params: { id: string } }>(route(apiKey), async (req, reply) => {
      const key = store.accounts.flatMap((account) => [...account.keys.values()]).find((k) => k.id === req.params.id && k.revokedAtMs === null);
      if (!key) return notFound(reply, 'API key');
      return reply.send({
        ...(fields.id ? { [fields.id]: key.id } : {}),
        ...(fields.name ? { [fields.name]: key.name } : {}),
        created_at: key.createdAt,
        ...(fields.lastUsedAt ? { [fields.lastUsedAt]: key.lastUsedAt } : {}),
      });
    });
  },
});
