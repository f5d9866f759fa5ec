import { defineMutant } from '../../mutant.js';
import { beforeItem } from '../../support.js';
import { sendError } from '../../../reference/errors.js';

/*
 * How this happens: id-enumeration scans were driving record lookups into the database, so a Bloom
 * filter of record ids is put in front of the handler. Ids the filter rules out are answered by
 * the middleware itself, with the platform team's generic 404 helper, which fills in
 * `code: "resource_missing"` and `param: "id"`; only ids the filter lets through reach the handler
 * and its documented 404 (code null, param null). Status and type are right, so dashboards and
 * smoke tests are happy.
 */
export default defineMutant({
  description:
    'A missing record is refused by an id pre-filter in front of the handler, whose 404 carries code "resource_missing" and param "id" instead of null and null.',
  breaks: { 'ERR-5': 'fail' },
  collateral: ['ERR-9', 'AUTH-6'],
  modify: (reference) => {
    for (const method of ['GET', 'HEAD']) {
      beforeItem(reference, 'record', method, async (id, req, reply) => {
        // Known ids (the filter's "maybe present") go on to the handler.
        if (id.includes('/') || req.account.data.records.indexOf(id) !== null) return;
        return sendError(reply, 404, 'not_found_error', `No record ${id}.`, { code: 'resource_missing', param: 'id' });
      });
    }
  },
});
