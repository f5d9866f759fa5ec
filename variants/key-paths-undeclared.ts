import type { FastifyReply, FastifyRequest } from 'fastify';
import { pathOf } from '../mutants/support.js';
import { notFound } from '../reference/errors.js';
import { arrayCollection, sendPage } from '../reference/routes/list.js';
import type { ApiKeyRecord } from '../reference/store.js';
import { defineVariant } from './variant.js';

/**
 * The profile declares neither the key paths nor the key id member, while the server lists keys at
 * GET /api/v1/api_keys and deletes them at DELETE /api/v1/api_keys/{id} by the creation
 * response's "id": the conventional place, which the suite may find by itself.
 */
export default defineVariant({
  description:
    'serves the key list and key deletion at /api/v1/api_keys and /api/v1/api_keys/{id} (by "id"), while the profile declares neither path nor the id member',
  openPoint: 'key-paths',
  atRisk: ['KEY-1', 'KEY-2', 'KEY-4', 'KEY-5', 'KEY-6', 'AUTH-3', 'AUTH-8'],
  profile: (p) => ({ ...p, paths: { ...p.paths, apiKey: null, apiKeyList: null }, apiKeyFields: { ...p.apiKeyFields, id: null } }),
  modify: (reference) => {
    const { app, state } = reference;
    const view = (key: ApiKeyRecord) => ({ id: key.id, name: key.name, created_at: key.createdAt, last_used_at: key.lastUsedAt, hint: `…${key.hint}` });
    // The reference names the id only where the profile does: this server always sends "id".
    app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/api_keys' || reply.statusCode !== 201 || typeof payload !== 'string') return payload;
      const created = [...req.account.keys.values()].at(-1)!;
      return JSON.stringify({ id: created.id, ...(JSON.parse(payload) as object) });
    });
    app.get('/api/v1/api_keys', async (req: FastifyRequest, reply: FastifyReply) =>
      sendPage(state, req, reply, arrayCollection([...req.account.keys.values()].filter((k) => state.behaviour.keyListed(k))), view),
    );
    app.delete<{ Params: { id: string } }>('/api/v1/api_keys/:id', async (req, reply) => {
      const key = req.account.keys.get(req.params.id);
      if (!key || key.revokedAtMs !== null) return notFound(reply, 'API key');
      key.revokedAtMs = state.now();
      return reply.code(204).send();
    });
  },
});
