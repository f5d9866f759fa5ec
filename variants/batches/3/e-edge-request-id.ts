import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { defineVariant } from '../../variant.js';
/*
 * Where this happens in the field: an Envoy edge (an Istio ingress gateway, Envoy Gateway, or
 * Envoy-based Contour) generates `x-request-id` for every request from outside. At the edge
 * (`use_remote_address: true`, `preserve_external_request_id: false`, both Envoy's edge defaults)
 * it overwrites whatever id the client sent, and with `always_set_request_id_in_response: true`
 * (commonly set so that support can be given an id) returns it on the response. The team's error
 * middleware then writes the same id into every error object, the way Microsoft Graph puts
 * `request-id` in its errors' `innerError` and Okta its `errorId`: a client that logs the error
 * body alone still has the id to quote.
 *
 * Why it is conformant:
 * - Errors: "A failed request returns an HTTP status and a JSON body with one member `error`": the
 *   body keeps exactly that one top-level member. The error object keeps type, code, message,
 *   param and path with their values untouched (a 429 still omits path; the 401 for a missing or
 *   malformed header keeps its own shape, Authentication rule 9). The one extra member,
 *   `request_id` (a string), sits inside `error`. The reading taken: the Error object table lists
 *   the members an error has and what they mean; it does not say the object has no others (the
 *   document never closes an object), and rule 4 tells clients to branch on status, type and code
 *   only. Success bodies are not touched, so a resource, a list envelope and a retrieval stay
 *   exactly the reference's.
 * - X-Request-Id is an extra response header; the document's headers (X-RateLimit-*, Retry-After)
 *   are untouched. HTTP lets any response carry extension fields (RFC 9110 5.1, 6.3).
 * - The id is a fresh random UUID per request, never an echo of client input, so it can hold no
 *   part of any key (the secret is shown only at creation, Authentication rule 5).
 */

/** The edge's id of a request: set on the raw request before the service sees it. */
function requestId(req: FastifyRequest): string {
  const id = req.headers['x-request-id'];
  return typeof id === 'string' && id !== '' ? id : randomUUID();
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export default defineVariant({
  description:
    'an Envoy edge stamps every request with a fresh x-request-id (replacing any the client sent) and returns it on every response, and the error middleware adds it to every error object as error.request_id',
  openPoint: 'extra-members',
  atRisk: ['ERR-1', 'ERR-2', 'ERR-5', 'ERR-9', 'AUTH-3', 'AUTH-7', 'AUTH-8', 'RATE-3', 'KEY-4', 'GEN-1'],
  modify: ({ app }) => {
    // The edge: before the service (and its authentication) reads the request.
    app.server.prependListener('request', (req: IncomingMessage) => {
      req.headers['x-request-id'] = randomUUID();
    });
    app.addHook('onSend', async (req, reply, payload) => {
      const id = requestId(req);
      reply.header('x-request-id', id);
      if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
      if (!String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
      const body = parseJson(payload);
      if (!isObject(body)) return payload;
      const error = body.error;
      if (!isObject(error)) return payload;
      error.request_id = id;
      return JSON.stringify(body);
    });
  },
});
