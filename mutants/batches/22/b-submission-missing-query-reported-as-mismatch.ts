import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';
import { invalidParam } from '../../../reference/errors.js';

/*
 * How this happens: body validation was moved into a framework-level schema step that runs before
 * the controller, and the cross-check "body workspace_id must equal the workspace query parameter"
 * went with it, written as `body.workspace_id !== query.workspace_id`. The controller's own
 * required-parameter check on the query now runs second. When a client forgets the query parameter
 * but sends a complete body, the cross-check compares the body's id with `undefined` and reports a
 * 422 "mismatch" on workspace_id before the 400 missing_param can be raised. With the parameter
 * present, every request behaves as before.
 */
export default defineMutant({
  description:
    'Submission creation without the required workspace query parameter answers 422 (workspace_id "differs from the query") instead of 400 missing_param, because the body cross-check runs before the required-parameter check.',
  breaks: { 'ERR-3': 'fail' },
  collateral: ['ERR-7'],
  modify: (reference) => {
    const param = reference.state.profile.submissions.workspaceQueryParam ?? 'workspace_id';
    reference.app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      const query = req.query as Record<string, unknown>;
      if (query[param] !== undefined) return;
      const body = req.body as Record<string, unknown> | null | undefined;
      if (typeof body !== 'object' || body === null || Array.isArray(body) || !('workspace_id' in body)) return;
      const value = body.workspace_id;
      // The body's workspace_id checks, in the reference's own order, now ahead of the query's.
      if (typeof value !== 'string' || value === '') {
        return invalidParam(reply, 'workspace_id', 'workspace_id must be a non-empty string.', 'workspace_id');
      }
      if (!req.account.data.workspaces.some((w) => w.id === value)) {
        return invalidParam(reply, 'workspace_id', 'workspace_id names no workspace of this account.', 'workspace_id', 'unknown_id');
      }
      return invalidParam(reply, 'workspace_id', 'workspace_id differs from the workspace in the query.', 'workspace_id', 'mismatch');
    });
  },
});
