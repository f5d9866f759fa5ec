import type { FastifyRequest } from 'fastify';
import type { Account, Submission } from '../../../reference/store.js';
import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: with the ORM, submission creation became two steps: insert the submission (to
 * get its id), then bulk-insert its rows, each with its own validation. When a row fails (rows not
 * an array, a row or its `data` not an object), the action answers the same 400/422 as before but,
 * since the submission row is already committed, it soft-deletes it (`deleted_at = now()`) rather
 * than leaving it half made; the retention job purges such rows after 30 days. The list query goes
 * through the ORM and its default scope hides them, and `has_more` comes from fetching `limit + 1`
 * rows of that query. But `total_count` is a hand-written `SELECT count(*) FROM submissions WHERE
 * account_id = $1 AND ...filters`, written to replace the ORM's slow count, and it has no
 * `deleted_at IS NULL`. Every failed row validation leaves a ghost that the count sees and the
 * list does not. Accounts that only send valid submissions (every manual test) see exact counts.
 */
export default defineMutant({
  description:
    "Submissions whose rows fail validation are soft-deleted rather than rolled back, and the submission list's total_count query omits the deleted_at filter, so total_count includes them while the items do not.",
  breaks: { 'SUB-4': 'fail', 'PAG-7': 'fail' },
  collateral: ['PAG-6', 'PAG-8'],
  modify: (reference) => {
    const { state } = reference;
    const settings = state.profile.submissions;
    const queryParam = settings.workspaceQueryParam ?? 'workspace_id';
    const listPath = state.profile.paths.submissionList;
    const filters = settings.listFilters ?? { workspace: 'workspace_id', taxonomy: 'taxonomy_id' };
    /** Soft-deleted submissions, per account: out of the default scope, still in the table. */
    const discarded = new WeakMap<Account, Submission[]>();

    const discard = (req: FastifyRequest) => {
      const account = req.account;
      const body = (req.body ?? {}) as Record<string, unknown>;
      const queried = (req.query as Record<string, unknown>)[queryParam];
      const workspaceId = typeof body.workspace_id === 'string' ? body.workspace_id : typeof queried === 'string' ? queried : account.data.workspaces[0]!.id;
      const taxonomyId = typeof body.taxonomy_id === 'string' ? body.taxonomy_id : account.data.taxonomies[0]!.id;
      const ghosts = discarded.get(account) ?? [];
      ghosts.push({
        id: state.store.nextId('sub'),
        workspace_id: workspaceId,
        taxonomy_id: taxonomyId,
        row_count: 0,
        created_at: new Date(state.now()).toISOString(),
      });
      discarded.set(account, ghosts);
    };

    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (typeof payload !== 'string' || !req.url.startsWith('/api/') || !req.account) return payload;
      const path = pathOf(req);
      const status = reply.statusCode;

      // Creation: a failure in the rows comes after the submission's insert, and discards it.
      if (req.method === 'POST' && path === '/api/v1/submissions' && (status === 400 || status === 422)) {
        try {
          const error = (JSON.parse(payload) as { error?: { path?: unknown; code?: unknown } }).error;
          const at = typeof error?.path === 'string' ? error.path : '';
          // A missing `rows` member is refused up front, before anything is inserted.
          if (at.startsWith('rows[') || (at === 'rows' && error?.code !== 'missing_param')) discard(req);
        } catch {
          // not JSON: nothing was inserted
        }
        return payload;
      }

      // Listing: the hand-written count sees the discarded ones too.
      if (req.method === 'GET' && listPath && path === listPath && status === 200) {
        const ghosts = discarded.get(req.account);
        if (!ghosts || ghosts.length === 0) return payload;
        const query = req.query as Record<string, unknown>;
        const workspace = filters.workspace ? query[filters.workspace] : undefined;
        const taxonomy = filters.taxonomy ? query[filters.taxonomy] : undefined;
        const counted = ghosts.filter(
          (s) => (workspace === undefined || s.workspace_id === workspace) && (taxonomy === undefined || s.taxonomy_id === taxonomy),
        ).length;
        if (counted === 0) return payload;
        try {
          const body = JSON.parse(payload) as { total_count?: unknown };
          if (typeof body.total_count !== 'number') return payload;
          body.total_count += counted;
          return JSON.stringify(body);
        } catch {
          return payload;
        }
      }
      return payload;
    });
  },
});
