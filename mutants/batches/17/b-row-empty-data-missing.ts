import { errorBody } from '../../../reference/errors.js';
import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

const isEmptyObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

/*
 * How this happens: the row validator's `if (!('data' in row))` was "tightened" in review to
 * `if (_.isEmpty(row.data))`, so that a row that carries nothing is refused as a row without
 * data. lodash's isEmpty is true for `{}` as much as for a missing member, so a row whose data is
 * an empty object, which the API accepts as any other JSON object, is answered 400 missing_param
 * for `data`, and nothing is stored. Rows with at least one member are unaffected.
 */
export default defineMutant({
  description:
    'A submission row whose data is an empty object ({}) is refused as a missing parameter (400 missing_param, param data) instead of being accepted with 201.',
  breaks: { 'SUB-1': 'fail', 'SUB-5': 'warn' },
  collateral: ['SUB-3', 'SUB-4', 'ERR-3', 'ERR-7'],
  modify: (reference) => {
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || reply.statusCode !== 201 || typeof payload !== 'string') return payload;
      const rows = (req.body as { rows?: unknown } | null | undefined)?.rows;
      if (!Array.isArray(rows)) return payload;
      const index = rows.findIndex((row) => isEmptyObject((row as { data?: unknown } | null)?.data));
      if (index < 0) return payload;
      let created: { id?: unknown };
      try {
        created = JSON.parse(payload);
      } catch {
        return payload;
      }
      // The validator runs before the insert: nothing of the request is kept.
      const at = req.account.submissions.findIndex((s) => s.id === created.id);
      if (at >= 0) req.account.submissions.splice(at, 1);
      reply.code(400);
      return JSON.stringify(
        errorBody('invalid_request_error', 'Missing required parameter: data.', { code: 'missing_param', param: 'data', path: `rows[${index}].data` }),
      );
    });
  },
});
