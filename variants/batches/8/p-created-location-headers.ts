import type { FastifyRequest } from 'fastify';
import { notFound } from '../../../reference/errors.js';
import { route } from '../../../reference/routes/list.js';
import type { ApiKeyRecord } from '../../../reference/store.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the 201 of a POST that names what it created, as the web
 * frameworks write it for you. Rails' `render json: @submission, status: :created, location:
 * @submission` writes an absolute `Location` (url_for: scheme, Host, path); Spring's
 * `ResponseEntity.created(ServletUriComponentsBuilder.fromCurrentRequest().path("/{id}")...)` and
 * ASP.NET Core's `CreatedAtAction` do the same; GitHub's `POST /repos/{owner}/{repo}/issues`
 * answers 201 with `Location: https://api.github.com/repos/octocat/Hello-World/issues/1347`.
 * Others (Django REST framework behind a path-only reverse(), many Go services) write the
 * path alone, a relative reference, which RFC 9110 10.2.2 allows. Services that also say that
 * the body they return *is* the new resource's representation add `Content-Location` (RFC 9110
 * 8.7), as JSON:API servers and several Azure and OData services do. And a careful service makes
 * the URL it hands out resolvable: a GET of it answers 200 with the resource.
 *
 * Here: `POST /api/v1/submissions` answers 201 (the reference's body, unchanged) with an absolute
 * `Location: http://<host>/api/v1/submissions/<id>` (the path alone if the Host header is not a
 * plain host[:port]) and a relative `Content-Location: /api/v1/submissions/<id>`, and that URL
 * answers GET with the very object the 201 carried. `POST /api/v1/api_keys` answers 201 (body
 * unchanged, full key included) with a relative `Location: /api/v1/api_keys/<id>` (the profile's
 * key path) and no Content-Location, because the creation body holds the secret and the key's
 * GET representation never will; a GET of that path answers 200 with the key as the list shows
 * it (id, name, created_at, last_used_at, a four-character hint), 404 once it is deleted.
 *
 * Why it is conformant:
 * - Operations, SUB-1: submission creation still answers 201 ("submission created") with the
 *   same body (Details: its response body is not shown; it is unchanged anyway). Headers beyond
 *   the rate-limit ones are not restricted anywhere in the document (open point
 *   `submission-response`, and `http-transport` for headers in general).
 * - Operations, KEY-1, KEY-2: key creation still succeeds (201, as the reference) and its body
 *   contains the complete key, which authenticates at once. Success status and member names of
 *   the key operations are not shown; they are the reference's.
 * - Authentication 5, KEY-4: no part of the secret appears in Location (it carries the key's id,
 *   a public identifier the list shows too), and the new GET of a key shows what the list shows:
 *   a 4-character hint at most, below the catalogue's 8-character "part of the secret". This is
 *   also why the key's creation carries no Content-Location: that header would call the body
 *   (secret included) a representation of a URL that never shows the secret.
 * - GEN-1, ERR-1, ERR-5, ERR-8, ERR-9: the added retrievals answer JSON; an id that is not one of
 *   the account's is 404 `not_found_error` with code and param null in the envelope, like every
 *   retrieval of the reference. Paths that were unknown before (`/api/v1/submissions/<x>`) are now
 *   a retrieval: the document says submissions exist and leaves paths of everything but creation
 *   and the three lists open, so serving one more GET under /api/v1/ is allowed; a missing one is
 *   still 404 with the envelope.
 * - AUTH-1, AUTH-6: the new routes sit behind the same authentication and per-key limit as every
 *   other route (the reference's onRequest hook), and read only `req.account`'s submissions and
 *   keys: another account's id is 404.
 * - RATE-*: the new GETs are authenticated requests and count against the key like any other.
 * - Nothing the profile declares changes: the key list, key deletion and submission list paths
 *   are the reference's; the added retrieval paths are not profile facts.
 */

/** A Host header that can be written into a URL as it is: name or address, optional port. */
const PLAIN_HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

function absolute(req: FastifyRequest, path: string): string {
  const host = req.host;
  return PLAIN_HOST.test(host) ? `${req.protocol}://${host}${path}` : path;
}

export default defineVariant({
  description:
    'Creation answers name what they created: the submission 201 carries an absolute Location and a relative Content-Location, the key 201 a relative Location (no Content-Location: its body holds the secret), and both URLs answer GET',
  openPoint: 'submission-response',
  atRisk: ['SUB-1', 'KEY-1', 'KEY-2', 'KEY-4', 'GEN-1', 'ERR-1', 'ERR-8', 'ERR-9', 'AUTH-6'],
  modify: ({ app, state }) => {
    const fields = state.profile.apiKeyFields;
    const keyPath = state.profile.paths.apiKey;
    const submissionPath = `${state.profile.paths.submissionList ?? '/api/v1/submissions'}/{id}`;
    const at = (template: string, id: string) => template.replace('{id}', encodeURIComponent(id));

    // The key as the reference's list shows it (reference/routes/keys.ts): never the secret.
    const view = (key: ApiKeyRecord): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      if (fields.id) out[fields.id] = key.id;
      if (fields.name) out[fields.name] = key.name;
      out.created_at = key.createdAt;
      if (fields.lastUsedAt) out[fields.lastUsedAt] = key.lastUsedAt;
      out.hint = `…${key.hint}`;
      return out;
    };

    app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'POST' || reply.statusCode !== 201 || typeof payload !== 'string') return payload;
      const created = req.routeOptions.url;
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (typeof body !== 'object' || body === null) return payload;
      const members = body as Record<string, unknown>;
      if (created === '/api/v1/submissions' && typeof members.id === 'string') {
        const path = at(submissionPath, members.id);
        reply.header('location', absolute(req, path));
        reply.header('content-location', path);
      } else if (created === '/api/v1/api_keys' && keyPath && fields.id && typeof members[fields.id] === 'string') {
        reply.header('location', at(keyPath, members[fields.id] as string));
      }
      return payload;
    });

    // The URLs handed out answer GET: the submission as created, the key as listed.
    app.get<{ Params: { id: string } }>(route(submissionPath), async (req, reply) => {
      const found = req.account.submissions.find((s) => s.id === req.params.id);
      return found ? reply.send(found) : notFound(reply, 'Submission');
    });
    if (keyPath) {
      app.get<{ Params: { id: string } }>(route(keyPath), async (req, reply) => {
        const key = req.account.keys.get(req.params.id);
        return key && key.revokedAtMs === null ? reply.send(view(key)) : notFound(reply, 'API key');
      });
    }
  },
});
