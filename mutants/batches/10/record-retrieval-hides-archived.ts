import { defineMutant } from '../../mutant.js';
import { beforeItem } from '../../support.js';
import { notFound } from '../../../reference/errors.js';

/*
 * How this happens: "archived" was added later as a soft-delete-like state, and the Record model
 * got an ORM default scope `where status <> 'archived'` so that archived records vanish from the
 * web app's detail pages. When customers complained that archived records were missing from API
 * exports, the list endpoint was switched to `Record.unscoped()`, but the single-record endpoint
 * still goes through the default scope, so an archived record that the list shows is a 404 by id.
 */
export default defineMutant({
  description: 'Retrieving a record by id answers 404 for records whose status is archived, although the records list shows them.',
  breaks: { 'RES-4': 'fail' },
  collateral: ['RES-7'],
  modify: (reference) => {
    beforeItem(reference, 'record', 'GET', async (id, req, reply) => {
      const records = req.account.data.records;
      const index = records.indexOf(id);
      if (index !== null && records.at(index).status === 'archived') return notFound(reply, 'Record');
    });
  },
});
