import { defineMutant } from '../../mutant.js';
import { beforeItem } from '../../support.js';
import { sendError } from '../../../reference/errors.js';

/*
 * How this happens: to hide replication lag (a record written in one region and read at once
 * through the other), a record lookup that misses locally is retried against the peer region
 * before answering 404, for any id that carries the record prefix. The peer is called through the
 * internal service API, and its NOT_FOUND comes back in the internal error format; the adapter
 * maps it to the public envelope but copies the internal reason (`resource_missing`) into `code`
 * and the internal `field: "id"` into `param`. Garbage ids never reach the peer and still get the
 * local, documented 404 (code null, param null); only well-formed record ids that do not exist
 * go the peer's way. The team's tests assert status and type, never code and param.
 */
export default defineMutant({
  description:
    'Retrieving a record by a well-formed record id (rec_…) that does not exist answers 404 not_found_error with code "resource_missing" and param "id" (from the cross-region fallback lookup) instead of code null and param null.',
  breaks: { 'ERR-5': 'fail' },
  collateral: ['ERR-9'],
  modify: (reference) => {
    beforeItem(reference, 'record', 'GET', async (id, req, reply) => {
      if (!id.startsWith('rec_') || id.includes('/')) return;
      if (req.account.data.records.indexOf(id) !== null) return;
      return sendError(reply, 404, 'not_found_error', 'Record not found in any region.', { code: 'resource_missing', param: 'id' });
    });
  },
});
