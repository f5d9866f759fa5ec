import { defineVariant } from '../../variant.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { invalidParam, missingParam, notFound } from '../../../reference/errors.js';
import type { Account } from '../../../reference/store.js';

/*
 * Where this happens in the field: services whose request bodies pass a schema layer before the
 * handler touches the database (Ajv behind Fastify or an OpenAPI request validator, Pydantic in
 * FastAPI, class-validator in NestJS). Such a layer locates a fault by an RFC 6901 JSON Pointer
 * (Ajv's `instancePath`, JSON:API's `source.pointer`, the `pointer` of RFC 9457 validation
 * problems), so the team's `path` is `/rows/2/data` rather than `rows[2].data`; and faults come out
 * by layer, not by field: first everything that is missing (400), then everything of the wrong
 * shape (422), and only then the checks that need the account's data (unknown or mismatched
 * identifiers). A team ships it because the schema layer is generated from its OpenAPI file and
 * runs without a database round trip, and because clients that fill in a form fix "missing"
 * before "wrong". Applied to both body-taking endpoints: submission creation and key creation.
 *
 * Why it is conformant: `path` is "location inside the request body, or null" (Errors, error
 * object) with its spelling not shown; a JSON Pointer is the standard spelling of such a location,
 * carries the row's index, and stays null for query parameters (not inside the body). `param`
 * names the offending parameter exactly as the reference does (the body member, `data` for a row's
 * payload, the query parameter by its name), never null on a 422. Statuses and types are the
 * document's: a genuinely missing required parameter is 400 `missing_param` (Errors 1) and comes
 * before any 422, so no request with an object body (or none) that lacks a required parameter gets
 * 422 for another fault; an
 * invalid value is 422 `invalid_request_error`; a query workspace that is not the account's is 404
 * `not_found_error` and is checked before the body's identifiers, so a foreign workspace stays 404.
 * The order among several faults of one request is not stated by the document; an otherwise valid
 * request with one fault gets the same status, type, code and param as from the reference. A
 * request with no body at all is read as every body member missing (400 naming the first required
 * one, `name` for a key), where the reference answered 422 `body`; a body that is JSON but not an
 * object is 422 `body`, as before. Reading taken: an absent body is "genuinely missing" (Errors 1).
 */

const BODY_FIELDS = ['workspace_id', 'taxonomy_id', 'rows'] as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An RFC 6901 JSON Pointer to a location inside the body. */
function pointer(...tokens: readonly (string | number)[]): string {
  return tokens.map((t) => `/${String(t).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

export default defineVariant({
  description:
    'validates bodies in layers (missing parameters, then shapes, then references to account data) and locates body faults with RFC 6901 JSON Pointers (`/rows/0/data`)',
  openPoint: 'required-body-fields',
  atRisk: ['ERR-3', 'ERR-4', 'ERR-7', 'SUB-2', 'SUB-3', 'KEY-8', 'AUTH-6', 'GEN-4'],
  modify: (reference) => {
    const { app, state } = reference;
    const settings = state.profile.submissions;
    const queryParam = settings.workspaceQueryParam ?? 'workspace_id';
    const queryRequired = settings.workspaceQueryParamRequired !== false;
    const required = new Set<string>(settings.requiredBodyFields ?? BODY_FIELDS);

    /** Submission creation: the first fault by layer, or null when the request is valid. */
    const checkSubmission = (req: FastifyRequest, reply: FastifyReply, account: Account): FastifyReply | null => {
      const queried = (req.query as Record<string, unknown>)[queryParam];
      const body: unknown = req.body;
      // No body at all: every member of it is missing.
      const members: Record<string, unknown> | null = isObject(body) ? body : body === undefined ? {} : null;

      // Layer 1: presence. Body members in the schema's order, then each row's data, then the query.
      if (members) {
        for (const field of BODY_FIELDS) if (required.has(field) && !(field in members)) return missingParam(reply, field, pointer(field));
        const rows = members.rows;
        if (Array.isArray(rows)) {
          for (const [index, row] of rows.entries()) {
            if (isObject(row) && !('data' in row)) return missingParam(reply, 'data', pointer('rows', index, 'data'));
          }
        }
      }
      if (queried === undefined && queryRequired) return missingParam(reply, queryParam);

      // Layer 2: shapes, in the schema's order.
      if (!isObject(body)) return invalidParam(reply, 'body', 'The request body must be a JSON object.', null, 'invalid_body');
      for (const field of ['workspace_id', 'taxonomy_id'] as const) {
        if (field in body && (typeof body[field] !== 'string' || body[field] === '')) {
          return invalidParam(reply, field, `${field} must be a non-empty string.`, pointer(field));
        }
      }
      if ('rows' in body) {
        const rows = body.rows;
        if (!Array.isArray(rows)) return invalidParam(reply, 'rows', 'rows must be an array.', pointer('rows'));
        for (const [index, row] of rows.entries()) {
          if (!isObject(row)) return invalidParam(reply, 'rows', `Each row must be an object (row ${index} is not).`, pointer('rows', index));
          if (!isObject(row.data)) return invalidParam(reply, 'data', `The data of row ${index} must be an object.`, pointer('rows', index, 'data'));
        }
      }
      if (queried !== undefined && (typeof queried !== 'string' || queried === '')) {
        return invalidParam(reply, queryParam, `${queryParam} must be a workspace identifier.`);
      }

      // Layer 3: references to the account's data. The query's workspace first (404 when it is
      // not the account's), then the body's identifiers.
      const workspaces = account.data.workspaces;
      if (typeof queried === 'string' && !workspaces.some((w) => w.id === queried)) return notFound(reply, 'Workspace');
      const workspaceId = body.workspace_id;
      if (typeof workspaceId === 'string') {
        if (!workspaces.some((w) => w.id === workspaceId)) {
          return invalidParam(reply, 'workspace_id', 'workspace_id names no workspace of this account.', pointer('workspace_id'), 'unknown_id');
        }
        if (typeof queried === 'string' && queried !== workspaceId) {
          return invalidParam(reply, 'workspace_id', 'workspace_id differs from the workspace in the query.', pointer('workspace_id'), 'mismatch');
        }
      }
      const taxonomyId = body.taxonomy_id;
      if (typeof taxonomyId === 'string' && !account.data.taxonomies.some((t) => t.id === taxonomyId)) {
        return invalidParam(reply, 'taxonomy_id', 'taxonomy_id names no taxonomy of this account.', pointer('taxonomy_id'), 'unknown_id');
      }
      return null;
    };

    /** Key creation: the same layers for its one member. */
    const checkKey = (req: FastifyRequest, reply: FastifyReply): FastifyReply | null => {
      const body: unknown = req.body;
      const members: Record<string, unknown> | null = isObject(body) ? body : body === undefined ? {} : null;
      if (members && !('name' in members)) return missingParam(reply, 'name', pointer('name'));
      if (!isObject(body)) return invalidParam(reply, 'body', 'The request body must be a JSON object.', null, 'invalid_body');
      if (typeof body.name !== 'string' || body.name.trim() === '') return invalidParam(reply, 'name', 'name must be a non-empty string.', pointer('name'));
      return null;
    };

    // Runs after authentication and body parsing, before the reference's handlers; a request that
    // passes here passes the reference's own checks, which then create as before.
    app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'POST') return;
      const account = req.account as Account | undefined;
      if (!account) return;
      const path = req.url.split('?')[0]!;
      const fault = path === '/api/v1/submissions' ? checkSubmission(req, reply, account) : path === '/api/v1/api_keys' ? checkKey(req, reply) : null;
      if (fault) return fault;
    });
  },
});
