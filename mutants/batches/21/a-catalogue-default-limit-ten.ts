import { defineMutant } from '../../mutant.js';
import { beforeHandler, pathOf } from '../../support.js';

/*
 * How this happens: the taxonomy, field and picklist endpoints were added later on a MongoDB
 * service using mongoose-paginate-v2. The controller passes `page` and `limit` to `paginate()`
 * only when the query carries them, so an absent (or empty) limit falls back to the plugin's own
 * default of 10, not the API's 100. Taxonomies and picklists have fewer than ten items, so they
 * look right; only the fields list, with more than ten, shows a short first page.
 */
export default defineMutant({
  description: 'The taxonomy, field and picklist lists use a default page size of 10 instead of 100 when no limit is given.',
  breaks: { 'PAG-2': 'fail' },
  collateral: ['PAG-8', 'PAG-10'],
  provokedBy: ['RES'],
  modify: (reference) => {
    const { paths } = reference.state.profile;
    const lists = new Set([paths.taxonomies, paths.fields, paths.picklists].filter((p): p is string => !!p));
    if (lists.size === 0) return;
    beforeHandler(reference, async (req) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || !lists.has(pathOf(req))) return;
      const query = req.query as Record<string, unknown>;
      if (query.limit === undefined || query.limit === '') query.limit = '10';
    });
  },
});
