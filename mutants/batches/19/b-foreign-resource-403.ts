import type { FastifyRequest } from 'fastify';
import type { PathName } from '../../../src/profile/profile.js';
import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';
import type { Account } from '../../../reference/store.js';

/*
 * How this happens: a refactor moves tenant checks out of the repositories into one shared
 * `loadOwned(kind, id)` helper that loads the row by its id across all accounts and then compares
 * `row.account_id` with the caller's: no row is 404, a row of another account is 403
 * "authorization_error" ("you may not access this resource"). It reads as the stricter, more
 * honest answer, but it tells every key which ids exist in other accounts.
 */
type Owned = (account: Account, id: string) => boolean;

const RESOURCES: ReadonlyArray<{ path: PathName; method: string; what: string; owns: Owned }> = [
  { path: 'workspace', method: 'GET', what: 'workspace', owns: (a, id) => a.data.workspaces.some((w) => w.id === id) },
  { path: 'governanceModel', method: 'GET', what: 'governance model', owns: (a, id) => a.data.governanceModels.some((g) => g.id === id) },
  { path: 'record', method: 'GET', what: 'record', owns: (a, id) => a.data.records.indexOf(id) !== null },
  { path: 'taxonomy', method: 'GET', what: 'taxonomy', owns: (a, id) => a.data.taxonomies.some((t) => t.id === id) },
  { path: 'field', method: 'GET', what: 'field', owns: (a, id) => a.data.fields.some((f) => f.id === id) },
  { path: 'picklist', method: 'GET', what: 'picklist', owns: (a, id) => a.data.picklists.some((p) => p.id === id) },
  { path: 'apiKey', method: 'DELETE', what: 'API key', owns: (a, id) => a.keys.has(id) },
];

export default defineMutant({
  description:
    "Retrieving another account's workspace, governance model, record, taxonomy, field or picklist (or deleting its API key) answers 403 authorization_error instead of 404, revealing that the id exists.",
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['ERR-9'],
  modify: (reference) => {
    const { paths } = reference.state.profile;
    const { accounts } = reference.state.store;
    const targets = RESOURCES.flatMap((r) => {
      const prefix = itemPrefix(paths[r.path]);
      return prefix ? [{ ...r, prefix }] : [];
    });
    const idOf = (req: FastifyRequest, prefix: string): string | null => {
      const path = pathOf(req);
      if (!path.startsWith(prefix) || path.length === prefix.length) return null;
      try {
        const id = decodeURIComponent(path.slice(prefix.length));
        return id.includes('/') ? null : id;
      } catch {
        return null;
      }
    };
    reference.app.addHook('preHandler', async (req, reply) => {
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      for (const target of targets) {
        if (method !== target.method) continue;
        const id = idOf(req, target.prefix);
        if (id === null || target.owns(req.account, id)) continue;
        if (!accounts.some((a) => a !== req.account && target.owns(a, id))) continue;
        return reply.code(403).send({
          error: { type: 'authorization_error', code: 'forbidden', message: `You do not have access to this ${target.what}.`, param: null, path: null },
        });
      }
    });
  },
});
