import { defineMutant } from '../../mutant.js';
import { beforeItem } from '../../support.js';
import { notFound } from '../../../reference/errors.js';

/*
 * How this happens: taxonomy definitions are homed in the region where each taxonomy was created,
 * and only the search index behind the list endpoints is replicated globally. `GET /fields` reads
 * that index and shows every field; `GET /fields/{id}` reads the serving region's own fields table
 * and answers 404 on a miss instead of forwarding to the field's home region. The sign-up taxonomy
 * is homed in the region that serves the account, so its fields retrieve fine; fields of
 * taxonomies created later from the other region are listed but cannot be retrieved. In staging
 * every taxonomy was created in one region.
 */
export default defineMutant({
  description:
    "Fields of any taxonomy but the account's first appear in the fields list but answer 404 not_found_error when retrieved by id (the serving region only holds fields of taxonomies homed there).",
  breaks: { 'RES-5': 'fail' },
  collateral: [],
  modify: (reference) => {
    beforeItem(reference, 'field', 'GET', async (id, req, reply) => {
      const { fields, taxonomies } = req.account.data;
      const field = fields.find((f) => f.id === id);
      const home = taxonomies[0]?.id;
      if (!field || field.taxonomy_id === home) return;
      return notFound(reply, 'Field');
    });
  },
});
