import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: the v2 data model gives every workspace a default taxonomy, and in v2 a
 * submission without `taxonomy_id` goes to it. The v1 endpoint was re-implemented on the v2 service
 * layer behind a thin adapter that fills in the v2 defaults before validation "so legacy integrations
 * that predate taxonomies keep working"; the migration set every workspace's default to the
 * account's first taxonomy. v1's required-field check therefore never sees a missing `taxonomy_id`.
 */
export default defineMutant({
  description:
    "Submission creation whose body omits taxonomy_id is accepted (201) into the account's first taxonomy instead of answered 400 for a missing required parameter.",
  breaks: { 'ERR-3': 'fail' },
  collateral: ['ERR-7'],
  modify: (reference) => {
    reference.app.addHook('preHandler', async (req) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      const body: unknown = req.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
      const fields = body as Record<string, unknown>;
      if ('taxonomy_id' in fields) return;
      const fallback = req.account.data.taxonomies[0];
      if (fallback) fields.taxonomy_id = fallback.id;
    });
  },
});
