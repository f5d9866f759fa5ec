import { defineMutant } from './mutant.js';
import { beforeHandler, pathOf } from './support.js';

/**
 * A submission into the account's own workspace under another account's taxonomy is created: the
 * handler confirms whose workspace it is, and looks the taxonomy up without regard to the account.
 * Written from a fault of a hidden batch (a reference inside a body crossed with the other account).
 */
export default defineMutant({
  description: "creates a submission into the account's own workspace under another account's taxonomy",
  breaks: { 'AUTH-6': 'fail' },
  modify: (reference) => {
    const { store } = reference.state;
    beforeHandler(reference, async (req) => {
      const body = req.body as { taxonomy_id?: unknown } | null;
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || typeof body?.taxonomy_id !== 'string') return;
      const account = req.account;
      const taxonomy = body.taxonomy_id;
      if (account.data.taxonomies.some((t) => t.id === taxonomy)) return;
      if (!store.accounts.some((other) => other !== account && other.data.taxonomies.some((t) => t.id === taxonomy))) return;
      // Found among all taxonomies: the rest of the handler goes on as for one of the account's own.
      body.taxonomy_id = account.data.taxonomies[0]?.id ?? taxonomy;
    });
  },
});
