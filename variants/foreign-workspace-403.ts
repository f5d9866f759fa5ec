import { beforeHandler, pathOf } from '../mutants/support.js';
import { defineVariant } from './variant.js';

/**
 * A submission naming another account's workspace is refused as a lack of permission (403
 * authorization_error) rather than as a workspace the key cannot reach (404): both refuse it.
 */
export default defineVariant({
  description: "answers 403 authorization_error to a submission that names another account's workspace",
  openPoint: 'account-data',
  atRisk: ['AUTH-6', 'ERR-2', 'SUB-2'],
  modify: (reference) => {
    const { profile, store } = reference.state;
    const param = profile.submissions.workspaceQueryParam ?? 'workspace_id';
    beforeHandler(reference, async (req, reply) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      const body = (req.body ?? {}) as Record<string, unknown>;
      const named = [(req.query as Record<string, unknown>)[param], body.workspace_id];
      const foreign = named.some((id) => store.accounts.some((a) => a !== req.account && a.data.workspaces.some((w) => w.id === id)));
      if (!foreign) return;
      await reply.code(403).send({
        error: {
          type: 'authorization_error',
          code: 'foreign_workspace',
          message: "This key cannot write to another account's workspace.",
          param: null,
          path: null,
        },
      });
    });
  },
});
