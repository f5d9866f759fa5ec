import { beforeHandler, foreignOwner, namedWorkspaces, pathOf } from '../mutants/support.js';
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
    beforeHandler(reference, async (req, reply) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      if (!namedWorkspaces(reference, req).some((id) => foreignOwner(reference, req, id))) return;
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
