import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';
import { sendError } from '../../../reference/errors.js';
import type { Account } from '../../../reference/store.js';
import type { PathName } from '../../../src/profile/profile.js';

/*
 * How this happens: after a penetration test, a tenant-isolation guard was put in front of every
 * single-resource route. It looks the id up across all tenants and, when the owner is not the
 * caller's account, answers an explicit 403 "You do not have access to this resource" because the
 * security team wanted denials logged as 403s in their SIEM. Own resources and ids that exist
 * nowhere behave as before (200 and 404), so every single-account test passes; but another
 * account's id now answers 403 instead of 404, which also tells a caller that the id exists.
 */
const OWNS: ReadonlyArray<readonly [PathName, (account: Account, id: string) => boolean]> = [
  ['workspace', (a, id) => a.data.workspaces.some((w) => w.id === id)],
  ['governanceModel', (a, id) => a.data.governanceModels.some((g) => g.id === id)],
  ['record', (a, id) => a.data.records.indexOf(id) !== null],
  ['taxonomy', (a, id) => a.data.taxonomies.some((t) => t.id === id)],
  ['field', (a, id) => a.data.fields.some((f) => f.id === id)],
  ['picklist', (a, id) => a.data.picklists.some((p) => p.id === id)],
];

export default defineMutant({
  description:
    'Retrieving a workspace, governance model, record, taxonomy, field or picklist that belongs to another account answers 403 authorization_error instead of 404 not_found_error.',
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['ERR-5', 'ERR-9'],
  modify: (reference) => {
    const { profile, store } = reference.state;
    const guarded = OWNS.flatMap(([name, owns]) => {
      const prefix = itemPrefix(profile.paths[name]);
      return prefix ? [{ prefix, owns }] : [];
    });
    reference.app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return;
      const path = pathOf(req);
      const route = guarded.find(({ prefix }) => path.startsWith(prefix) && path.length > prefix.length);
      if (!route) return;
      let id: string;
      try {
        id = decodeURIComponent(path.slice(route.prefix.length));
      } catch {
        return;
      }
      if (id.includes('/') || route.owns(req.account, id)) return;
      if (store.accounts.some((a) => a !== req.account && route.owns(a, id))) {
        return sendError(reply, 403, 'authorization_error', 'You do not have access to this resource.', { code: 'forbidden' });
      }
    });
  },
});
