import type { FastifyReply, FastifyRequest } from 'fastify';
import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';

/*
 * How this happens: the ORM migration gives Workspace two default scopes: the tenant scope
 * (`where account_id = current account`, set by the request middleware) and the archival scope
 * (`where archived_at IS NULL`). After the first workspaces were archived, integrations that had
 * stored a workspace id started getting 404 on its retrieval, and support asked for archived
 * workspaces to stay readable by id. The show action got a fallback: look the id up normally, and
 * when that finds nothing, try `Workspace.unscoped.findBy({ id })` "to include archived ones".
 * `unscoped` drops every default scope, the tenant scope with the archival one, so an id that is
 * not the caller's own resolves to whichever account's workspace has it. Workspace ids are
 * random and never shown outside their account, nobody tests the show endpoint with a foreign id,
 * and the lists are still scoped, so the leak shows up on no dashboard.
 */
export default defineMutant({
  description:
    "Workspace retrieval falls back to an unscoped lookup (meant to include archived workspaces) when the caller's own scope finds no match, which also returns other accounts' workspaces by id.",
  breaks: { 'AUTH-6': 'fail' },
  modify: (reference) => {
    const { state } = reference;
    const prefix = itemPrefix(state.profile.paths.workspace);
    if (!prefix) return;
    reference.app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return;
      const path = pathOf(req);
      if (!path.startsWith(prefix) || path.length === prefix.length || path.indexOf('/', prefix.length) !== -1) return;
      let id: string;
      try {
        id = decodeURIComponent(path.slice(prefix.length));
      } catch {
        return;
      }
      // The scoped lookup first: the caller's own workspaces are served by the reference as before.
      if (req.account.data.workspaces.some((w) => w.id === id)) return;
      // The fallback: unscoped, so neither archived_at nor account_id narrows it.
      for (const account of state.store.accounts) {
        const found = account.data.workspaces.find((w) => w.id === id);
        if (found) {
          reply.code(200).send(found);
          return reply;
        }
      }
      return;
    });
  },
});
