import { defineMutant } from '../../mutant.js';
import { beforeItem } from '../../support.js';

/*
 * How this happens: in the v2 data model a field of type picklist is no longer a field but a
 * "choice" attached to its taxonomy, and the migration moved those rows to a new table. The v1
 * fields list is still served from a compatibility view that unions both tables, but single-field
 * retrieval was switched (behind a flag that is on everywhere) to the v2 fields repository, which
 * only knows the plain fields. Picklist fields appear in the list and answer 404 when retrieved.
 */
export default defineMutant({
  description: 'Retrieving a field of type picklist by the id the fields list shows answers 404 not_found_error; the other fields are retrieved normally.',
  breaks: { 'RES-5': 'fail' },
  collateral: [],
  modify: (reference) => {
    beforeItem(reference, 'field', 'GET', async (id, req, reply) => {
      const field = req.account.data.fields.find((f) => f.id === id);
      if (field?.type !== 'picklist') return;
      return reply.code(404).send({ error: { type: 'not_found_error', code: null, message: 'Field not found.', param: null, path: null } });
    });
  },
});
