import type { FastifyReply } from 'fastify';
import { defineMutant } from '../../mutant.js';
import { beforeHandler, beforeItem, foreignOwner, namedWorkspaces, pathOf } from '../../support.js';

/*
 * How this happens: a security report showed a tenant-isolation gap in an older build of the item
 * endpoints. The incident hotfix added an ownership guard in front of the routes: look the id up
 * across all tenants and, when another account owns it, answer 403 "belongs to another account"
 * (the guard also logs the attempt for the forensics team). The leak was closed, the guard stayed,
 * and nobody changed its answer to the 404 the document requires: another account's workspace,
 * governance model or record, or a submission into another account's workspace, is now 403
 * authorization_error, which also confirms to the caller that the id exists.
 */
export default defineMutant({
  description:
    "Requests that name another account's workspace, governance model or record (retrieval, or a submission into that workspace) are refused with 403 authorization_error instead of 404 not_found_error.",
  breaks: { 'AUTH-6': 'fail' },
  collateral: [],
  modify: (reference) => {
    const { store } = reference.state;
    const forbid = (reply: FastifyReply, what: string): FastifyReply =>
      reply.code(403).send({
        error: {
          type: 'authorization_error',
          code: 'cross_account_access',
          message: `This ${what} belongs to another account.`,
          param: null,
          path: null,
        },
      });
    beforeItem(reference, 'workspace', 'GET', async (id, req, reply) => {
      if (store.accounts.some((a) => a !== req.account && a.data.workspaces.some((w) => w.id === id))) return forbid(reply, 'workspace');
      return undefined;
    });
    beforeItem(reference, 'governanceModel', 'GET', async (id, req, reply) => {
      if (store.accounts.some((a) => a !== req.account && a.data.governanceModels.some((m) => m.id === id))) return forbid(reply, 'governance model');
      return undefined;
    });
    beforeItem(reference, 'record', 'GET', async (id, req, reply) => {
      if (store.accounts.some((a) => a !== req.account && a.data.records.indexOf(id) !== null)) return forbid(reply, 'record');
      return undefined;
    });
    beforeHandler(reference, async (req, reply) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return undefined;
      if (namedWorkspaces(reference, req).some((id) => foreignOwner(reference, req, id) !== undefined)) return forbid(reply, 'workspace');
      return undefined;
    });
  },
});
