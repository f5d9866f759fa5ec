import { defineMutant } from '../../mutant.js';
import { notFound } from '../../../reference/errors.js';
import { route } from '../../../reference/routes/list.js';

/*
 * How this happens: picklists have no account column; they belong to an account through the
 * fields that use them. The list endpoint reads them from the account's import batches, but the
 * single-picklist endpoint was written for the field editor and checks tenancy by a join
 * `picklists → fields → taxonomies → account`. A picklist that no field uses yet (imported, not yet
 * attached) is therefore listed, and its retrieval answers 404 "not reachable by the key". Every
 * picklist the demo opens is attached to a field, so it goes unnoticed.
 */
export default defineMutant({
  description:
    'Retrieving a picklist by id answers 404 for a listed picklist that no field references (tenancy checked through the fields that use it); attached picklists retrieve normally.',
  breaks: { 'RES-5': 'fail' },
  collateral: ['RES-7'],
  modify: (reference) => {
    const template = reference.state.profile.paths.picklist;
    if (!template) return;
    const pattern = route(template);
    reference.app.addHook('preHandler', async (req, reply) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || req.routeOptions.url !== pattern) return;
      const id = (req.params as { id?: unknown }).id;
      const { picklists, fields } = req.account.data;
      // An unknown id is the reference's own 404; a picklist some field uses is found by the join.
      if (!picklists.some((p) => p.id === id) || fields.some((f) => f.picklist_id === id)) return;
      return notFound(reply, 'Picklist');
    });
  },
});
