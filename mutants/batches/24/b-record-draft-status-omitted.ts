import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';
import { RECORD_STATUSES } from '../../../reference/data.js';

/*
 * How this happens: the records list is streamed by a hand-optimised JSON writer, but the
 * single-record endpoint still goes through the service's protobuf message and
 * `MessageToDict(record)` with its default options. In the .proto the status enum's zero value is
 * `DRAFT = 0`, and proto3's JSON mapping leaves out every field that holds its default value, so a
 * draft record is retrieved with no `status` member at all. Every other status, and the list, are
 * unaffected; `data` is a `google.protobuf.Struct`, which is always written out.
 */
export default defineMutant({
  description:
    'Retrieving a single record whose status is the enum zero value ("draft") returns it without a status member (proto3 JSON omits default values); the records list is unaffected.',
  breaks: { 'RES-3': 'fail', 'RES-7': 'warn' },
  collateral: ['RES-4'],
  modify: (reference) => {
    const prefix = itemPrefix(reference.state.profile.paths.record);
    if (!prefix) return;
    const zeroValue: string = RECORD_STATUSES[0];
    reference.app.addHook('onSend', async (req, reply, payload) => {
      const path = pathOf(req);
      if (req.method !== 'GET' || !path.startsWith(prefix) || path.length === prefix.length || path.slice(prefix.length).includes('/')) return payload;
      if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      let body: { status?: unknown };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (typeof body !== 'object' || body === null || body.status !== zeroValue) return payload;
      delete body.status;
      return JSON.stringify(body);
    });
  },
});
