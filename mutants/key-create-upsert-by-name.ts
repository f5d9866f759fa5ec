import { defineMutant } from './mutant.js';
import { beforeHandler, keptSecrets, pathOf } from './support.js';

/**
 * Key creation is an upsert on (account, name), and the secret is kept beside the record so that
 * the upsert can answer like a creation: a second key with a live key's name hands out the first.
 */
export default defineMutant({
  description: 'answers the creation of a key named like a live key with that key, its secret included',
  breaks: { 'KEY-4': 'fail' },
  modify: (reference) => {
    const { profile } = reference.state;
    const secrets = keptSecrets(reference);
    const fields = profile.apiKeyFields;
    beforeHandler(reference, async (req, reply) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/api_keys') return;
      const name = (req.body as { name?: unknown } | null | undefined)?.name;
      const live = [...req.account.keys.values()].find((k) => k.revokedAtMs === null && k.name === name && secrets.has(k.id));
      if (!live) return;
      return reply.code(201).send({
        ...(fields.id ? { [fields.id]: live.id } : {}),
        ...(fields.name ? { [fields.name]: live.name } : {}),
        created_at: live.createdAt,
        ...(fields.lastUsedAt ? { [fields.lastUsedAt]: live.lastUsedAt } : {}),
        hint: `…${live.hint}`,
        [fields.secret ?? 'key']: secrets.get(live.id),
      });
    });
  },
});
