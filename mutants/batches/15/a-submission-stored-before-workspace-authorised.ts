import { defineMutant } from '../../mutant.js';
import { foreignOwner, pathOf } from '../../support.js';

/*
 * How this happens: to answer quickly, the submission endpoint was split into "accept" and
 * "process": the controller first does `Submission.create!(workspace_id: params[:workspace_id],
 * ...)` to enqueue the import job, and only then calls `authorize!(submission.workspace)`, whose
 * failure the error handler maps to 404. There is no surrounding transaction, so the row is
 * already committed when the 404 goes out. A key that names another account's workspace gets the
 * right answer, 404, yet a submission has appeared in that account's workspace.
 */
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export default defineMutant({
  description:
    "A submission naming another account's workspace in the query is answered 404, but only after it has been stored in that account, where it shows up in its submission list.",
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['SUB-4', 'PAG-7'],
  modify: (reference) => {
    const { state } = reference;
    const param = state.profile.submissions.workspaceQueryParam ?? 'workspace_id';
    reference.app.addHook('preHandler', async (req) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      const workspaceId = (req.query as Record<string, unknown>)[param];
      const owner = foreignOwner(reference, req, workspaceId);
      const body = req.body;
      // The model's own validations still hold: a body without rows is not saved.
      if (!owner || typeof workspaceId !== 'string' || !isObject(body) || !Array.isArray(body.rows)) return;
      owner.submissions.push({
        id: state.store.nextId('sub'),
        workspace_id: workspaceId,
        taxonomy_id: typeof body.taxonomy_id === 'string' ? body.taxonomy_id : owner.data.taxonomies[0]!.id,
        row_count: body.rows.length,
        created_at: new Date(state.now()).toISOString(),
      });
      // The reference then answers 404: the workspace is not the caller's.
    });
  },
});
