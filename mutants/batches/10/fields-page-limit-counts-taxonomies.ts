import { defineMutant } from '../../mutant.js';
import { beforeHandler, pathOf } from '../../support.js';

/*
 * How this happens: the fields list is served by querying taxonomies with their fields eagerly
 * loaded (an ORM `include`), and the page's LIMIT/OFFSET land on the parent taxonomy rows, not on
 * the fields: each page holds every field of `limit` taxonomies. `total_count` comes from a separate
 * `COUNT(*)` on fields, and `has_more` from the taxonomy page, so at the default limit of 100 all
 * looks right and only a small page size shows it.
 */
export default defineMutant({
  description:
    'The fields list applies page and limit to taxonomies and returns all fields of each, so a page can hold more than limit fields and a walk takes fewer pages than ceil(total_count / limit).',
  breaks: { 'PAG-7': 'fail', 'PAG-8': 'warn' },
  collateral: ['PAG-6'],
  modify: (reference) => {
    const { state } = reference;
    const list = state.profile.paths.fields;
    if (!list) return;
    beforeHandler(reference, async (req, reply) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || pathOf(req) !== list) return;
      const query = req.query as Record<string, unknown>;
      const page = state.behaviour.parsePageParam(query.page, 'page');
      const limit = state.behaviour.parsePageParam(query.limit, 'limit');
      if (!page.ok || !limit.ok) return; // the reference's own 422
      const { taxonomies, fields } = req.account.data;
      const window = state.behaviour.pageWindow(taxonomies.length, page.value, limit.value);
      const shown = new Set(taxonomies.slice(window.start, window.end).map((t) => t.id));
      const items = fields.filter((f) => shown.has(f.taxonomy_id));
      return reply.code(200).send({ items, has_more: window.hasMore, total_count: fields.length });
    });
  },
});
