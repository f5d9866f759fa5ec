import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../reference/errors.js';
import { arrayCollection, sendPage } from '../reference/routes/list.js';
import type { ApiKeyRecord } from '../reference/store.js';
import { defineVariant } from './variant.js';

/**
 * Keys are listed at GET /api/v1/keys and deleted at DELETE /api/v1/keys/{id}, which the profile
 * does not declare: the conventional /api/v1/api_keys/{id} is no endpoint here. The deletion probe
 * finds /api/v1/keys/{id} among the forms of the key list's path (issue 24), so the run deletes
 * every key it makes; were it not found, the run would create none beyond its one probe key
 * (incomplete, never non-conformant).
 */
export default defineVariant({
  description: 'lists and deletes keys at /api/v1/keys and /api/v1/keys/{id}, paths the profile leaves undeclared',
  openPoint: 'key-paths',
  atRisk: ['KEY-1', 'KEY-2', 'KEY-4', 'KEY-5', 'KEY-6', 'AUTH-3', 'AUTH-8', 'ERR-8'],
  profile: (p) => ({ ...p, paths: { ...p.paths, apiKey: null, apiKeyList: null } }),
  modify: (reference) => {
    const { app, state } = reference;
    const { name, lastUsedAt } = state.profile.apiKeyFields;
    const view = (key: ApiKeyRecord) => ({
      id: key.id,
      [name ?? 'name']: key.name,
      created_at: key.createdAt,
      [lastUsedAt ?? 'last_used_at']: key.lastUsedAt,
      hint: `…${key.hint}`,
    });
    app.get('/api/v1/keys', async (req: FastifyRequest, reply: FastifyReply) =>
      sendPage(state, req, reply, arrayCollection([...req.account.keys.values()].filter((k) => state.behaviour.keyListed(k))), view),
    );
    app.delete<{ Params: { id: string } }>('/api/v1/keys/:id', async (req, reply) => {
      const key = req.account.keys.get(req.params.id);
      if (!key || key.revokedAtMs !== null) return notFound(reply, 'API key');
      key.revokedAtMs = state.now();
      return reply.code(204).send();
    });
  },
});
