import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PathName } from '../src/profile/profile.js';
import type { IncomingMessage } from 'node:http';
import type { ReferenceApp } from '../reference/server.js';

/** Rewrites JSON responses the reference sends; `edit` returns the new body (or the old one). */
/**
 * Rewrites each page of the key list (the profile's list path) through `edit`, which gets the
 * envelope and the key's last-use member. Nothing happens when the profile declares neither.
 */
export function rewriteKeyList(
  reference: ReferenceApp,
  edit: (page: { items: any[]; has_more: boolean; total_count: number }, lastUsedAt: string) => void,
): void {
  const { profile } = reference.state;
  const list = profile.paths.apiKeyList;
  const field = profile.apiKeyFields.lastUsedAt;
  if (!list || !field) return;
  rewriteJson(reference, (body, req: FastifyRequest) => {
    if (req.method === 'GET' && pathOf(req) === list && isEnvelope(body)) edit(body, field);
    return body;
  });
}

export function rewriteJson(reference: ReferenceApp, edit: (body: any, req: FastifyRequest, reply: FastifyReply) => unknown): void {
  reference.app.addHook('onSend', async (req, reply, payload) => {
    if (typeof payload !== 'string' || !String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      return payload;
    }
    return JSON.stringify(edit(body, req, reply));
  });
}

/** Runs before the reference's own handling of requests (after authentication). */
export function beforeHandler(reference: ReferenceApp, hook: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>): void {
  reference.app.addHook('preHandler', async (req, reply) => {
    await hook(req, reply);
  });
}

/** Is this a list envelope? */
export function isEnvelope(body: any): body is { items: any[]; has_more: boolean; total_count: number } {
  return typeof body === 'object' && body !== null && Array.isArray(body.items) && 'has_more' in body;
}

/** The path of a request without its query. */
export function pathOf(req: FastifyRequest): string {
  return req.url.split('?')[0]!;
}

/**
 * Edits a raw request before the reference sees it, authentication included: for faults in how
 * a vendor's gateway reads the Authorization header.
 */
export function beforeReference(reference: ReferenceApp, edit: (req: IncomingMessage) => void): void {
  reference.app.server.prependListener('request', edit);
}

/** The part of a profile item path before `{id}` (`/api/v1/records/`), or null when not offered. */
export function itemPrefix(template: string | null): string | null {
  return template ? template.slice(0, template.indexOf('{id}')) : null;
}

/**
 * Runs `hook` before the reference handles `method` on the profile's item path, with the id from
 * the URL. Nothing happens when the profile does not offer the path.
 */
export function beforeItem(
  reference: ReferenceApp,
  path: PathName,
  method: string,
  hook: (id: string, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
): void {
  const prefix = itemPrefix(reference.state.profile.paths[path]);
  if (!prefix) return;
  beforeHandler(reference, async (req, reply) => {
    const requested = pathOf(req);
    if (req.method !== method || !requested.startsWith(prefix) || requested.length === prefix.length) return;
    await hook(decodeURIComponent(requested.slice(prefix.length)), req, reply);
  });
}

/** The workspace ids a submission names: its workspace query parameter's, then its body's. */
export function namedWorkspaces(reference: ReferenceApp, req: FastifyRequest): unknown[] {
  const param = reference.state.profile.submissions.workspaceQueryParam ?? 'workspace_id';
  return [(req.query as Record<string, unknown>)[param], ((req.body ?? {}) as Record<string, unknown>).workspace_id];
}

/** The account, other than the caller's, that owns the workspace `id`; undefined when none does. */
export function foreignOwner(reference: ReferenceApp, req: FastifyRequest, id: unknown) {
  return reference.state.store.accounts.find((a) => a !== req.account && a.data.workspaces.some((w) => w.id === id));
}

/**
 * The complete secret of each key the reference creates, by the key's id: what a mutant that hands
 * a secret out again (after its creation) needs, since the reference keeps only a hash.
 */
export function keptSecrets(reference: ReferenceApp): ReadonlyMap<string, string> {
  const { store } = reference.state;
  const secrets = new Map<string, string>();
  const create = store.createKey.bind(store);
  store.createKey = (account, name) => {
    const created = create(account, name);
    secrets.set(created.record.id, created.secret);
    return created;
  };
  return secrets;
}

/**
 * Runs `answer` before the reference for a key creation whose name a live key of the same account
 * already has: how a target that keeps key names unique refuses the second one.
 */
export function onTakenKeyName(reference: ReferenceApp, answer: (name: string, reply: FastifyReply) => Promise<unknown>): void {
  beforeHandler(reference, async (req, reply) => {
    if (req.method !== 'POST' || pathOf(req) !== '/api/v1/api_keys') return;
    const name = (req.body as { name?: unknown } | null | undefined)?.name;
    if (typeof name !== 'string') return;
    const taken = [...req.account.keys.values()].some((k) => k.revokedAtMs === null && k.name === name);
    if (taken) return answer(name, reply);
  });
}
