import type { FastifyInstance } from 'fastify';
import { invalidParam, missingParam, notFound } from '../errors.js';
import type { ReferenceState } from '../state.js';
import type { ApiKeyRecord } from '../store.js';
import { arrayCollection, route, sendPage } from './list.js';

/** API keys: create (the full key once), list (never the secret), delete (revokes at once). */
export function keyRoutes(app: FastifyInstance, state: ReferenceState): void {
  const fields = state.profile.apiKeyFields;
  const view = (key: ApiKeyRecord): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    if (fields.id) out[fields.id] = key.id;
    if (fields.name) out[fields.name] = key.name;
    out.created_at = key.createdAt;
    if (fields.lastUsedAt) out[fields.lastUsedAt] = key.lastUsedAt;
    out.hint = `…${key.hint}`;
    return out;
  };
  const listed = (keys: Map<string, ApiKeyRecord>) => [...keys.values()].filter((k) => state.behaviour.keyListed(k));

  app.post('/api/v1/api_keys', async (req, reply) => {
    const body = req.body as Record<string, unknown> | undefined;
    if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
      return invalidParam(reply, 'body', 'The body must be a JSON object.', null, 'invalid_body');
    }
    if (!('name' in body)) return missingParam(reply, 'name', 'name');
    if (typeof body.name !== 'string' || body.name.trim() === '') {
      return invalidParam(reply, 'name', 'name must be a non-empty string.', 'name');
    }
    const { record, secret } = state.store.createKey(req.account, body.name);
    // The document: the response contains the full key once. Under a member the profile names, else `key`.
    return reply.code(201).send({ ...view(record), [fields.secret ?? 'key']: secret });
  });

  if (state.profile.paths.apiKeyList) {
    app.get(route(state.profile.paths.apiKeyList), async (req, reply) => sendPage(state, req, reply, arrayCollection(listed(req.account.keys)), view));
  }
  if (state.profile.paths.apiKey) {
    app.delete<{ Params: { id: string } }>(route(state.profile.paths.apiKey), async (req, reply) => {
      const key = req.account.keys.get(req.params.id);
      if (!key || key.revokedAtMs !== null) return notFound(reply, 'API key');
      key.revokedAtMs = state.now();
      return reply.code(204).send();
    });
  }
}
