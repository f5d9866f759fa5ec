import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: body validation is done by a schema library whose errors carry a location
 * (`['rows', 0, 'data']`). The exception mapper fills `path` from the whole location and `param`
 * with `loc.length === 1 ? loc[0] : null`, the author thinking of flat bodies only. Top-level
 * faults (workspace_id a number, rows not an array) name their param; a fault inside a row (a row
 * that is not an object, a row whose data is not an object) gets `param: null`, located by `path`
 * alone. Missing parameters come from a separate exception and keep their param.
 */
export default defineMutant({
  description:
    'On submission creation, a 422 for a fault inside a row (rows[0] not an object, rows[0].data not an object) has param null; only path locates it.',
  breaks: { 'SUB-2': 'fail', 'ERR-4': 'fail' },
  collateral: [],
  modify: (reference) => {
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || reply.statusCode !== 422 || typeof payload !== 'string') return payload;
      let body: { error?: { param?: unknown; path?: unknown } };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      const error = body.error;
      if (!error || typeof error.path !== 'string' || !/[[.]/.test(error.path)) return payload;
      error.param = null;
      return JSON.stringify(body);
    });
  },
});
