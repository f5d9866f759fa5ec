import { notFound } from '../reference/errors.js';
import { defineMutant } from './mutant.js';
import { beforeItem, keptSecrets } from './support.js';

/** A "show key" view beside deletion, reading a copy of the secret kept in clear at creation. */
export default defineMutant({
  description: 'serves GET on the key path with the key record, its complete secret included',
  breaks: { 'KEY-4': 'fail' },
  modify: (reference) => {
    const { profile } = reference.state;
    const secrets = keptSecrets(reference);
    const fields = profile.apiKeyFields;
    beforeItem(reference, 'apiKey', 'GET', async (id, req, reply) => {
      const key = req.account.keys.get(id);
      if (!key || key.revokedAtMs !== null) return notFound(reply, 'API key');
      return reply.code(200).send({
        [fields.id ?? 'id']: key.id,
        [fields.name ?? 'name']: key.name,
        [fields.lastUsedAt ?? 'last_used_at']: key.lastUsedAt,
        [fields.secret ?? 'key']: secrets.get(key.id) ?? null,
      });
    });
  },
});
