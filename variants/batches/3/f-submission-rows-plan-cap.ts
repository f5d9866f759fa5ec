import type { FastifyRequest } from 'fastify';
import { defineVariant } from '../../variant.js';
import { sendError } from '../../../reference/errors.js';
import type { ReferenceState } from '../../../reference/state.js';

/*
 * Where this happens in the field: SaaS import APIs cap the rows of one batch by plan (HubSpot's
 * batch endpoints take 100 inputs, Salesforce's composite collections 200, many data platforms a
 * few hundred to a few thousand per plan tier): a batch is processed in one transaction, and the
 * cap keeps a transaction's size and a request's latency bounded. This deployment's plan allows
 * 500 rows per submission; a larger one is refused whole (nothing is stored) and the client splits
 * it.
 *
 * Why it is conformant: the Limits section leaves rows per submission open ("not shown"), and the
 * profile has no member for it, so nothing declared changes (the sample row, `acceptsAnyData`:
 * any data object is still accepted, it is the count that is capped). The refusal looks the way
 * the Errors section describes a limit outside the plan: 422 `plan_limit_exceeded`, code
 * `limit_exceeded` (a code the document names), `param` naming the resource (`rows`), `path`
 * locating it in the body, a message stating the limit. It is a request that changes data, where
 * Errors rule 3 allows `plan_limit_exceeded`; read-only endpoints never answer it. The cap is
 * checked only once every other check of the reference has passed, so a missing parameter is
 * still 400, and an invalid row is still 422 `invalid_request_error` with its index in `path`,
 * whatever the row count. Same cap for every account and key.
 */

/** Rows a submission may hold on this deployment's plan. */
const MAX_ROWS = 500;

const SUBMISSIONS = '/api/v1/submissions';
const BODY_FIELDS = ['workspace_id', 'taxonomy_id', 'rows'] as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The rows of a submission the reference will accept (the checks of reference/routes/submissions.ts,
 * in its order), or null when it answers an error of its own: the cap comes after all of them.
 */
function acceptedRows(state: ReferenceState, req: FastifyRequest): readonly unknown[] | null {
  const settings = state.profile.submissions;
  const queryParam = settings.workspaceQueryParam ?? 'workspace_id';
  const required = new Set<string>(settings.requiredBodyFields ?? BODY_FIELDS);
  const { workspaces, taxonomies } = req.account.data;
  const queried = (req.query as Record<string, unknown>)[queryParam];
  if (queried === undefined) {
    if (settings.workspaceQueryParamRequired !== false) return null;
  } else if (typeof queried !== 'string' || !workspaces.some((w) => w.id === queried)) {
    return null;
  }
  const body: unknown = req.body;
  if (!isObject(body)) return null;
  for (const field of BODY_FIELDS) {
    if (!(field in body) && required.has(field)) return null;
  }
  if ('workspace_id' in body) {
    const value = body.workspace_id;
    if (typeof value !== 'string' || !workspaces.some((w) => w.id === value)) return null;
    if (typeof queried === 'string' && value !== queried) return null;
  }
  if ('taxonomy_id' in body) {
    const value = body.taxonomy_id;
    if (typeof value !== 'string' || !taxonomies.some((t) => t.id === value)) return null;
  }
  if (!('rows' in body)) return [];
  const rows: unknown = body.rows;
  if (!Array.isArray(rows)) return null;
  return rows.every((row: unknown) => isObject(row) && 'data' in row && isObject(row.data)) ? rows : null;
}

export default defineVariant({
  description: `refuses a submission of more than ${MAX_ROWS} rows, the plan's rows-per-submission limit, with 422 plan_limit_exceeded (code limit_exceeded, param rows)`,
  // No open point names the Limits section's "rows per submission"; this is the nearest (a size limit on an input).
  openPoint: 'input-lengths',
  atRisk: ['SUB-1', 'SUB-2', 'SUB-3', 'SUB-5', 'ERR-2', 'ERR-4', 'ERR-6'],
  modify: ({ app, state }) => {
    app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'POST' || req.routeOptions.url !== SUBMISSIONS) return;
      const rows = acceptedRows(state, req);
      if (rows === null || rows.length <= MAX_ROWS) return;
      // Refused before the reference stores anything; an async hook that answers must return the reply.
      return sendError(
        reply,
        422,
        'plan_limit_exceeded',
        `Your plan allows at most ${MAX_ROWS} rows per submission; this one has ${rows.length}. Split the rows into several submissions.`,
        { code: 'limit_exceeded', param: 'rows', path: 'rows' },
      );
    });
  },
});
