import type { FastifyInstance, FastifyReply } from 'fastify';
import { invalidParam, missingParam, notFound } from '../errors.js';
import type { ReferenceState } from '../state.js';
import type { Account } from '../store.js';
import { arrayCollection, route, sendPage } from './list.js';

const BODY_FIELDS = ['workspace_id', 'taxonomy_id', 'rows'] as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Submission create and list. A missing required parameter is 400 `missing_param`; a present
 * but invalid one (null, empty, wrong type, unknown id) is 422 naming it, with `path` locating
 * a fault inside the body, row index included.
 */
export function submissionRoutes(app: FastifyInstance, state: ReferenceState): void {
  const settings = state.profile.submissions;
  const queryParam = settings.workspaceQueryParam ?? 'workspace_id';
  const required = new Set(settings.requiredBodyFields ?? BODY_FIELDS);

  app.post('/api/v1/submissions', async (req, reply) => {
    const query = req.query as Record<string, unknown>;
    const account = req.account;
    const queried = query[queryParam];
    if (queried === undefined) {
      if (settings.workspaceQueryParamRequired !== false) return missingParam(reply, queryParam);
    } else if (typeof queried !== 'string' || queried === '') {
      return invalidParam(reply, queryParam, `${queryParam} must be a workspace identifier.`);
    } else if (!account.data.workspaces.some((w) => w.id === queried)) {
      return notFound(reply, 'Workspace');
    }
    const body = req.body;
    if (!isObject(body)) return invalidParam(reply, 'body', 'The body must be a JSON object.', null, 'invalid_body');
    for (const field of BODY_FIELDS) {
      if (!(field in body) && required.has(field)) return missingParam(reply, field, field);
    }
    const problem = validateBody(account, body, typeof queried === 'string' ? queried : null, reply);
    if (problem) return problem;
    const workspaceId = (body.workspace_id as string | undefined) ?? (queried as string | undefined) ?? account.data.workspaces[0]!.id;
    const submission = {
      id: state.store.nextId('sub'),
      workspace_id: workspaceId,
      taxonomy_id: (body.taxonomy_id as string | undefined) ?? account.data.taxonomies[0]!.id,
      row_count: Array.isArray(body.rows) ? body.rows.length : 0,
      created_at: new Date(state.now()).toISOString(),
    };
    account.submissions.push(submission);
    return reply.code(201).send(submission);
  });

  if (state.profile.paths.submissionList) {
    const filters = settings.listFilters ?? { workspace: 'workspace_id', taxonomy: 'taxonomy_id' };
    app.get(route(state.profile.paths.submissionList), async (req, reply) => {
      const query = req.query as Record<string, unknown>;
      const workspace = filters.workspace ? query[filters.workspace] : undefined;
      const taxonomy = filters.taxonomy ? query[filters.taxonomy] : undefined;
      const matching = req.account.submissions.filter(
        (s) => (workspace === undefined || s.workspace_id === workspace) && (taxonomy === undefined || s.taxonomy_id === taxonomy),
      );
      return sendPage(state, req, reply, arrayCollection(matching));
    });
  }
}

function validateBody(account: Account, body: Record<string, unknown>, queried: string | null, reply: FastifyReply): FastifyReply | null {
  if ('workspace_id' in body) {
    const value = body.workspace_id;
    if (typeof value !== 'string' || value === '') return invalidParam(reply, 'workspace_id', 'workspace_id must be a non-empty string.', 'workspace_id');
    if (!account.data.workspaces.some((w) => w.id === value))
      return invalidParam(reply, 'workspace_id', 'workspace_id names no workspace of this account.', 'workspace_id', 'unknown_id');
    if (queried !== null && value !== queried)
      return invalidParam(reply, 'workspace_id', 'workspace_id differs from the workspace in the query.', 'workspace_id', 'mismatch');
  }
  if ('taxonomy_id' in body) {
    const value = body.taxonomy_id;
    if (typeof value !== 'string' || value === '') return invalidParam(reply, 'taxonomy_id', 'taxonomy_id must be a non-empty string.', 'taxonomy_id');
    if (!account.data.taxonomies.some((t) => t.id === value))
      return invalidParam(reply, 'taxonomy_id', 'taxonomy_id names no taxonomy of this account.', 'taxonomy_id', 'unknown_id');
  }
  if ('rows' in body) {
    const rows = body.rows;
    if (!Array.isArray(rows)) return invalidParam(reply, 'rows', 'rows must be an array.', 'rows');
    for (const [index, row] of rows.entries()) {
      if (!isObject(row)) return invalidParam(reply, 'rows', `rows[${index}] must be an object.`, `rows[${index}]`);
      if (!('data' in row)) return missingParam(reply, 'data', `rows[${index}].data`);
      if (!isObject(row.data)) return invalidParam(reply, 'data', `rows[${index}].data must be an object.`, `rows[${index}].data`);
    }
  }
  return null;
}
