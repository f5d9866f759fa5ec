import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReferenceApp } from '../reference/server.js';

/** Rewrites JSON responses the reference sends; `edit` returns the new body (or the old one). */
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
