import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: in the OpenAPI document the `required: [workspace_id, taxonomy_id, rows]` list
 * was written under the `Submission` response schema instead of the `SubmissionCreate` request
 * schema. The generated request model therefore makes every member optional and fills defaults:
 * `rows` becomes an empty list, `workspace_id` falls back to the workspace in the query and
 * `taxonomy_id` to the account's default taxonomy. A creation that omits a required body member is
 * accepted (201, an empty or defaulted submission) instead of refused with 400. Present but
 * invalid members are still validated as before, and the query parameter is still required.
 */
export default defineMutant({
  description:
    'Submission creation treats the required body members workspace_id, taxonomy_id and rows as optional, filling defaults (query workspace, first taxonomy, empty rows) and answering 201 instead of 400.',
  breaks: { 'ERR-3': 'fail' },
  collateral: ['ERR-7', 'SUB-4'],
  modify: (reference) => {
    const param = reference.state.profile.submissions.workspaceQueryParam ?? 'workspace_id';
    reference.app.addHook('preHandler', async (req) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      const body = req.body as Record<string, unknown> | null | undefined;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
      const data = req.account.data;
      const queried = (req.query as Record<string, unknown>)[param];
      if (!('workspace_id' in body)) {
        const fallback = typeof queried === 'string' && queried !== '' ? queried : data.workspaces[0]?.id;
        if (fallback !== undefined) body.workspace_id = fallback;
      }
      const defaultTaxonomy = data.taxonomies[0];
      if (!('taxonomy_id' in body) && defaultTaxonomy) body.taxonomy_id = defaultTaxonomy.id;
      if (!('rows' in body)) body.rows = [];
    });
  },
});
