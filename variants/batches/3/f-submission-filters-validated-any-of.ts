import { defineVariant } from '../../variant.js';
import { invalidParam } from '../../../reference/errors.js';
import { arrayCollection, sendPage } from '../../../reference/routes/list.js';

/*
 * Where this happens in the field: a FastAPI (or Spring) service whose list action declares its
 * filters as `workspace_id: list[str] | None = Query(None)`: the framework binds a repeated
 * parameter (`?workspace_id=a&workspace_id=b`) to a list, and the query becomes
 * `WHERE workspace_id = ANY(:ids) AND taxonomy_id = ANY(:ids)`. Each id is checked against the
 * account's own workspaces and taxonomies first, the way Stripe answers a list filtered by an
 * unknown customer ("No such customer", naming the parameter) instead of an empty page: a typo in
 * an id then shows up as an error rather than as "no submissions", which integrators otherwise
 * report as lost data.
 *
 * Why it is conformant: Details and open points say only that the submission list "can be filtered
 * by workspace and by taxonomy"; how values combine and whether they are validated is not stated.
 * Every filter still only narrows (AND between filters, any-of within one), and `total_count`
 * counts exactly the submissions that match, across pages (Pagination envelope). A filter value
 * that is empty or names no workspace/taxonomy of the key's account is "a value [that] is invalid
 * ... or fails validation": 422 `invalid_request_error`, `param` naming the filter, path null (it
 * is not in the body) (Errors table). Another account's workspace is answered exactly like an
 * unknown one, so nothing of another account appears or leaks (Authentication 4). Filter names
 * stay the profile's, so the profile is unchanged. Page and limit are read as before, after the
 * filters.
 */

type FilterResult = { ok: true; ids: ReadonlySet<string> | null } | { ok: false; param: string; message: string; code: string };

/** The ids one filter names (null: the filter is not given), each checked against the account's own. */
function readFilter(query: Record<string, unknown>, name: string | null, known: readonly { id: string }[], what: string): FilterResult {
  if (name === null) return { ok: true, ids: null };
  const raw = query[name];
  if (raw === undefined) return { ok: true, ids: null };
  const values: readonly unknown[] = Array.isArray(raw) ? raw : [raw];
  const ids = new Set<string>();
  for (const value of values) {
    if (typeof value !== 'string' || value === '') {
      return { ok: false, param: name, message: `${name} must be a ${what} identifier.`, code: 'invalid_value' };
    }
    if (!known.some((item) => item.id === value)) {
      return { ok: false, param: name, message: `${name} names no ${what} of this account.`, code: 'unknown_id' };
    }
    ids.add(value);
  }
  return { ok: true, ids };
}

export default defineVariant({
  description:
    'the submission list takes one or more ids per filter (repeated parameter, any of them), combines filters with AND, and refuses a filter id that names no workspace or taxonomy of the account with 422 naming the filter',
  openPoint: 'submission-list',
  atRisk: ['SUB-4', 'AUTH-6', 'ERR-4', 'PAG-1', 'PAG-7'],
  modify: ({ app, state }) => {
    const listPath = state.profile.paths.submissionList;
    if (!listPath) return;
    // The reference's own defaults where the profile leaves the names out (routes/submissions.ts).
    const filters = state.profile.submissions.listFilters ?? { workspace: 'workspace_id', taxonomy: 'taxonomy_id' };
    app.addHook('preHandler', async (req, reply) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || req.routeOptions.url !== listPath) return;
      const query = req.query as Record<string, unknown>;
      const account = req.account;
      const workspaces = readFilter(query, filters.workspace, account.data.workspaces, 'workspace');
      if (!workspaces.ok) return invalidParam(reply, workspaces.param, workspaces.message, null, workspaces.code);
      const taxonomies = readFilter(query, filters.taxonomy, account.data.taxonomies, 'taxonomy');
      if (!taxonomies.ok) return invalidParam(reply, taxonomies.param, taxonomies.message, null, taxonomies.code);
      const inWorkspaces = workspaces.ids;
      const inTaxonomies = taxonomies.ids;
      // One synchronous pass over the account's submissions: the page and its total_count come from the same snapshot.
      const matching = account.submissions.filter(
        (s) => (inWorkspaces === null || inWorkspaces.has(s.workspace_id)) && (inTaxonomies === null || inTaxonomies.has(s.taxonomy_id)),
      );
      // Answered here, so the reference's exact-match handler does not run (an async hook must return the reply).
      return sendPage(state, req, reply, arrayCollection(matching));
    });
  },
});
