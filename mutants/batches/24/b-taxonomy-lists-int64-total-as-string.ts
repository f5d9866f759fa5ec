import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: the taxonomy, field and picklist endpoints are newer than the rest of the API
 * and are served by a gRPC service behind grpc-gateway. Their `List*Response` messages declare
 * `int64 total_count`, and the proto3 JSON mapping writes 64-bit integers as JSON strings, so these
 * three lists answer `"total_count": "12"` while the hand-written workspace, governance model and
 * records lists answer a number. Items, has_more and retrieval are all correct.
 */
export default defineMutant({
  description:
    'The taxonomy, field and picklist lists return total_count as a JSON string ("12") instead of an integer (proto3 int64 mapping); the other lists are unaffected.',
  breaks: { 'RES-5': 'fail', 'PAG-1': 'fail' },
  collateral: ['PAG-7', 'PAG-9'],
  modify: (reference) => {
    const { paths } = reference.state.profile;
    const lists = new Set([paths.taxonomies, paths.fields, paths.picklists].filter((p): p is string => !!p));
    if (lists.size === 0) return;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || !lists.has(pathOf(req)) || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      let body: { items?: unknown; total_count?: unknown };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (typeof body !== 'object' || body === null || !Array.isArray(body.items) || typeof body.total_count !== 'number') return payload;
      body.total_count = String(body.total_count);
      return JSON.stringify(body);
    });
  },
});
