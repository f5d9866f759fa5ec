import { isEnvelope, rewriteJson } from '../mutants/support.js';
import { defineVariant } from './variant.js';

/**
 * The list envelope carries members the document does not list beside items, has_more and
 * total_count: the page and limit it was read with, and next_page (null on the last page).
 */
export default defineVariant({
  description: 'every list envelope also carries page, limit and next_page (the next page number, null on the last page)',
  openPoint: 'extra-members',
  atRisk: ['PAG-1', 'PAG-2', 'PAG-6', 'PAG-7', 'PAG-9', 'PAG-10', 'GEN-2'],
  modify: (reference) => {
    const { behaviour } = reference;
    rewriteJson(reference, (body, req, reply) => {
      if (reply.statusCode !== 200 || !isEnvelope(body)) return body;
      const query = req.query as Record<string, unknown>;
      const page = behaviour.parsePageParam(query.page, 'page');
      const limit = behaviour.parsePageParam(query.limit, 'limit');
      if (!page.ok || !limit.ok) return body;
      const current = Number(page.value);
      return { ...body, page: current, limit: Number(limit.value), next_page: body.has_more ? current + 1 : null };
    });
  },
});
