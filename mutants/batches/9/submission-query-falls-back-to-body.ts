import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: a "convenience" in the controller reads the target workspace as
 * `req.query.workspace_id ?? req.body.workspace_id`, so the required-parameter check on the query
 * never fires when the body names a workspace. The request is accepted instead of answered 400.
 */
export default defineMutant({
  description:
    "Submission creation without the required workspace query parameter silently takes the workspace from the body's workspace_id and answers 201 instead of 400.",
  breaks: { 'ERR-3': 'fail' },
  collateral: ['ERR-7'],
  modify: (reference) => {
    const param = reference.state.profile.submissions.workspaceQueryParam ?? 'workspace_id';
    reference.app.addHook('preHandler', async (req) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      const query = req.query as Record<string, unknown>;
      const body = req.body as Record<string, unknown> | null | undefined;
      if (query[param] !== undefined || typeof body !== 'object' || body === null || Array.isArray(body)) return;
      if (typeof body.workspace_id === 'string' && body.workspace_id !== '') query[param] = body.workspace_id;
    });
  },
});
