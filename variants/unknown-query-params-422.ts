import { invalidParam } from '../reference/errors.js';
import { route } from '../reference/routes/list.js';
import { collections } from '../src/target/collections.js';
import { defineVariant } from './variant.js';

/**
 * A query parameter the endpoint does not know is refused, 422 invalid_request_error naming it:
 * lists know page and limit, the submission list its two filters as well, submission creation
 * the workspace query parameter; retrievals, deletions and key creation know none.
 */
export default defineVariant({
  description: 'refuses a query parameter the endpoint does not know with 422 invalid_request_error naming it',
  openPoint: 'unknown-query-params',
  atRisk: ['GEN-3', 'PAG-10', 'ERR-4', 'SUB-4', 'AUTH-4'],
  modify: (reference) => {
    const { paths, submissions } = reference.state.profile;
    const paging = ['page', 'limit'];
    const known = new Map<string, readonly string[]>();
    // Every list but the submission list, whose filters it knows besides (below).
    for (const { name, list } of Object.values(collections(reference.state.profile)))
      if (list && name !== 'submissions') known.set(`GET ${route(list)}`, paging);
    if (paths.submissionList) {
      const filters = submissions.listFilters ?? { workspace: 'workspace_id', taxonomy: 'taxonomy_id' };
      known.set(`GET ${route(paths.submissionList)}`, [...paging, ...[filters.workspace, filters.taxonomy].filter((f): f is string => typeof f === 'string')]);
    }
    known.set('POST /api/v1/submissions', [submissions.workspaceQueryParam ?? 'workspace_id']);
    reference.app.addHook('preHandler', async (req, reply) => {
      const pattern = req.routeOptions.url;
      // Unknown paths and methods go to the reference's 404 and 405.
      if (pattern === undefined || !req.url.startsWith('/api/')) return;
      const allowed = known.get(`${req.method} ${pattern}`) ?? [];
      const unknown = Object.keys(req.query as Record<string, unknown>).find((name) => !allowed.includes(name));
      if (unknown !== undefined)
        return invalidParam(reply, unknown, `${unknown} is not a parameter of ${req.method} ${pattern.replace(/:id/g, '{id}')}.`, null, 'unknown_param');
    });
  },
});
