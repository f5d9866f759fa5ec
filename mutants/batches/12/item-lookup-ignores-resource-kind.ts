import { defineMutant } from '../../mutant.js';

/*
 * How this happens: workspaces, governance models, taxonomies, fields and picklists are all rows of
 * one `catalogue_objects` table with a `kind` column, and ids are unique across it. The five
 * retrieval handlers were folded into one `findObject(accountId, id)` finder during a refactor, and
 * the `AND kind = ?` condition went with it; each handler only ever gets ids from its own list in
 * the tests, so an id of another kind on a path comes back 200 with that other object.
 */
export default defineMutant({
  description:
    "Retrieving a workspace, governance model, taxonomy, field or picklist by id finds any of the account's catalogue objects: an id of another kind on the path answers 200 with that object instead of 404.",
  breaks: { 'ERR-9': 'warn' },
  collateral: ['ERR-5', 'RES-1', 'RES-2'],
  modify: (reference) => {
    const { paths } = reference.state.profile;
    const urls = new Set(
      [paths.workspace, paths.governanceModel, paths.taxonomy, paths.field, paths.picklist]
        .filter((p): p is string => typeof p === 'string')
        .map((p) => p.replace('{id}', ':id')),
    );
    reference.app.addHook('preHandler', async (req, reply) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || !urls.has(req.routeOptions.url ?? '')) return;
      const id = (req.params as { id?: string }).id;
      const { workspaces, governanceModels, taxonomies, fields, picklists } = req.account.data;
      const found = [...workspaces, ...governanceModels, ...taxonomies, ...fields, ...picklists].find((o) => o.id === id);
      // An object of the path's own kind is the same answer as the route's; none at all: the route's 404.
      if (found) return reply.code(200).send(found);
    });
  },
});
