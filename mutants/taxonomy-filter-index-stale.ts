import { defineMutant } from './mutant.js';
import { pathOf } from './support.js';
import { arrayCollection, sendPage } from '../reference/routes/list.js';
import type { Account, Submission } from '../reference/store.js';

/**
 * The taxonomy filter of the submission list reads a per-account index built on the first
 * taxonomy-filtered request and never updated: what is submitted later is missing from the filtered
 * list and its total_count, which agree with each other. Written blind, from the API document, by
 * someone who had not read the suite (batch 8).
 */
export default defineMutant({
  description:
    'The submission list’s taxonomy filter reads a per-account index built on the first taxonomy-filtered request and never updated, so submissions created after it are missing from taxonomy-filtered lists and their total_count.',
  breaks: { 'SUB-4': 'fail' },
  modify: (reference) => {
    const { profile } = reference.state;
    const list = profile.paths.submissionList;
    const filters = profile.submissions.listFilters ?? { workspace: 'workspace_id', taxonomy: 'taxonomy_id' };
    const taxonomyParam = filters.taxonomy;
    if (!list || !taxonomyParam) return;
    const index = new WeakMap<Account, Map<string, Submission[]>>();
    reference.app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'GET' || pathOf(req) !== list) return;
      const query = req.query as Record<string, unknown>;
      const taxonomy = query[taxonomyParam];
      if (typeof taxonomy !== 'string') return;
      let byTaxonomy = index.get(req.account);
      if (!byTaxonomy) {
        byTaxonomy = new Map();
        for (const s of req.account.submissions) {
          const bucket = byTaxonomy.get(s.taxonomy_id) ?? [];
          bucket.push(s);
          byTaxonomy.set(s.taxonomy_id, bucket);
        }
        index.set(req.account, byTaxonomy);
      }
      const workspace = filters.workspace ? query[filters.workspace] : undefined;
      const matching = (byTaxonomy.get(taxonomy) ?? []).filter((s) => workspace === undefined || s.workspace_id === workspace);
      sendPage(reference.state, req, reply, arrayCollection(matching));
      return reply;
    });
  },
});
