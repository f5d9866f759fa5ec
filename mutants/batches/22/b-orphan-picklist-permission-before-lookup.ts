import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';
import { notFound } from '../../../reference/errors.js';

/*
 * How this happens: taxonomy-level read permissions were introduced, and picklist retrieval was put
 * behind the same guard: it resolves the picklist's owning field, then that field's taxonomy, checks
 * the caller may read the taxonomy, and only then loads the picklist. A picklist that no field uses
 * has no taxonomy to check, the guard fails closed and answers 404 before the picklist itself is
 * ever looked up. The list endpoint has no such guard, so the picklist is listed but cannot be
 * retrieved; every picklist that is in use behaves normally.
 */
export default defineMutant({
  description:
    'Retrieving a picklist that no field references answers 404 not_found_error, although the picklist appears in the picklists list; picklists used by a field are retrieved normally.',
  breaks: { 'RES-5': 'fail' },
  collateral: [],
  modify: (reference) => {
    const prefix = itemPrefix(reference.state.profile.paths.picklist);
    if (!prefix) return;
    reference.app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return;
      const path = pathOf(req);
      if (!path.startsWith(prefix) || path.length === prefix.length) return;
      let id: string;
      try {
        id = decodeURIComponent(path.slice(prefix.length));
      } catch {
        return; // unreadable id: the normal route answers
      }
      if (id.includes('/')) return;
      const { fields, taxonomies } = req.account.data;
      const owner = fields.find((f) => f.picklist_id === id);
      if (owner && taxonomies.some((t) => t.id === owner.taxonomy_id)) return; // readable through its taxonomy: the normal route
      return notFound(reply, 'Picklist');
    });
  },
});
