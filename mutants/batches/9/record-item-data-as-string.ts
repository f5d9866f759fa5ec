import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';

/*
 * How this happens: the records list is served from a denormalised JSON document, but the
 * single-record endpoint reads the row from the database, where `data` is a TEXT column holding
 * JSON; the row mapper copies it as is and forgets to `JSON.parse` it. The list shows `data` as an
 * object, the retrieval as a string holding the same JSON.
 */
export default defineMutant({
  description: 'Retrieving a single record returns its data payload as a JSON-encoded string instead of an object (the records list is unaffected).',
  breaks: { 'RES-3': 'fail', 'RES-7': 'warn' },
  collateral: ['RES-4'],
  modify: (reference) => {
    const prefix = itemPrefix(reference.state.profile.paths.record);
    if (!prefix) return;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      const path = pathOf(req);
      if (req.method !== 'GET' || !path.startsWith(prefix) || path.length === prefix.length) return payload;
      if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      let body: { data?: unknown };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (typeof body.data !== 'object' || body.data === null) return payload;
      body.data = JSON.stringify(body.data);
      return JSON.stringify(body);
    });
  },
});
