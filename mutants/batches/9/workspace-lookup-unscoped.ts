import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';

/*
 * How this happens: the list handler calls `workspaces.findAllByAccount(accountId)`, but the
 * single-item handler was written later against the generic `workspaces.findById(id)` of the
 * repository, which has no tenant filter. Nobody notices, because in every demo the caller only
 * ever asks for ids it has just seen in its own list.
 */
export default defineMutant({
  description: "Retrieving a workspace by id looks it up across all accounts, so one account's key can read another account's workspace (200 instead of 404).",
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['RES-4', 'RES-7', 'ERR-9'],
  modify: (reference) => {
    const prefix = itemPrefix(reference.state.profile.paths.workspace);
    if (!prefix) return;
    reference.app.addHook('preHandler', async (req, reply) => {
      const path = pathOf(req);
      if ((req.method !== 'GET' && req.method !== 'HEAD') || !path.startsWith(prefix) || path.length === prefix.length) return;
      const id = decodeURIComponent(path.slice(prefix.length));
      if (id.includes('/') || req.account.data.workspaces.some((w) => w.id === id)) return; // own workspace: the normal route
      for (const account of reference.state.store.accounts) {
        const found = account.data.workspaces.find((w) => w.id === id);
        if (found) return reply.code(200).send(found);
      }
    });
  },
});
