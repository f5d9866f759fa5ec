import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';

/*
 * How this happens: the backend's proto declares `enum RecordStatus { DRAFT = 0; SUBMITTED = 1;
 * ... }`, draft taking the zero slot proto3 demands instead of an UNSPECIFIED sentinel. The facade
 * marshals responses with protojson's defaults (EmitUnpopulated false), which leave out every
 * field holding its zero value, so a draft record's `status` simply vanishes. The fixtures the
 * facade was tested against were all submitted or approved records.
 */
export default defineMutant({
  description: 'Records in draft status are returned without a status member, in the records list and on retrieval.',
  breaks: { 'RES-3': 'fail' },
  collateral: [],
  modify: (reference) => {
    const prefix = itemPrefix(reference.state.profile.paths.record);
    const strip = (record: unknown): void => {
      if (typeof record !== 'object' || record === null) return;
      const item = record as { status?: unknown };
      if (item.status === 'draft') delete item.status;
    };
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const path = pathOf(req);
      const list = path === '/api/v1/records';
      const single = prefix !== null && path.startsWith(prefix) && path.length > prefix.length;
      if (!list && !single) return payload;
      let body: { items?: unknown };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (list) {
        if (!Array.isArray(body.items)) return payload;
        for (const item of body.items) strip(item);
      } else {
        strip(body);
      }
      return JSON.stringify(body);
    });
  },
});
