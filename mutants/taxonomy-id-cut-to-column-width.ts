import { defineMutant } from './mutant.js';
import { beforeItem } from './support.js';

/**
 * The taxonomy lookup binds the id to a column of the ids' fixed width, and the database, not in
 * strict mode, cuts a longer value to the column before comparing: an id with characters added
 * finds the taxonomy whose id it begins with. The spelling of a missing id × the retrieval.
 */
export default defineMutant({
  description: 'a taxonomy id with characters added after it is answered 200 with that taxonomy instead of 404, as the lookup cuts the id to the column width',
  breaks: { 'ERR-5': 'fail' },
  collateral: ['ERR-9'],
  modify: (reference) => {
    beforeItem(reference, 'taxonomy', 'GET', async (id, req, reply) => {
      const taxonomies = req.account.data.taxonomies;
      if (taxonomies.some((t) => t.id === id)) return;
      const cut = taxonomies.find((t) => id.length > t.id.length && id.startsWith(t.id));
      if (cut) return reply.code(200).send(cut);
    });
  },
});
