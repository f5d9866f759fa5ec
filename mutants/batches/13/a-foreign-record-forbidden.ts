import { defineMutant } from '../../mutant.js';
import { beforeItem } from '../../support.js';

/*
 * How this happens: the record retrieval loads the record by id from the shared table first and
 * then runs the ownership check, which raises the framework's generic Forbidden. Ids of the
 * caller's own records and ids that exist nowhere behave correctly (200 and 404), so only a key
 * asking for another account's record sees 403, which also confirms that the id exists.
 */
export default defineMutant({
  description: "Retrieving another account's record answers 403 authorization_error instead of 404 not_found_error, revealing that the id exists.",
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['AUTH-4', 'ERR-5'],
  modify: (reference) => {
    beforeItem(reference, 'record', 'GET', async (id, req, reply) => {
      if (req.account.data.records.indexOf(id) !== null) return;
      const owner = reference.state.store.accounts.find((a) => a !== req.account && a.data.records.indexOf(id) !== null);
      if (!owner) return;
      return reply
        .code(403)
        .send({ error: { type: 'authorization_error', code: 'forbidden', message: 'You do not have access to this record.', param: null, path: null } });
    });
  },
});
