import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the REST facade is generated over a gRPC list service that takes
 * `page_size`/`page_token`. The facade's own request validation (generated from the OpenAPI
 * schema: `limit` an integer, minimum 1) answers 422 itself, but the upper bound lives only in the
 * backend, whose paging helper returns OUT_OF_RANGE for `page_size > max_page_size`. The error
 * translator maps INVALID_ARGUMENT to 422 explicitly and falls back to grpc-gateway's default
 * HTTPStatusFromCode for every other code, which turns OUT_OF_RANGE into 400; the field violation
 * it copies into `param` carries the proto field name.
 */
export default defineMutant({
  description:
    'A limit above 10000 is passed through to the backend, whose OUT_OF_RANGE status is translated to 400 naming "page_size" instead of 422 naming limit.',
  breaks: { 'PAG-4': 'fail' },
  collateral: ['PAG-10', 'ERR-7'],
  modify: (reference) => {
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (reply.statusCode !== 422 || typeof payload !== 'string') return payload;
      const raw = (req.query as Record<string, unknown> | undefined)?.limit;
      if (typeof raw !== 'string' || !/^[0-9]+$/.test(raw) || BigInt(raw) <= 10_000n) return payload;
      let body: { error?: { param?: unknown } };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (body.error?.param !== 'limit') return payload;
      reply.code(400);
      return JSON.stringify({
        error: { type: 'invalid_request_error', code: 'out_of_range', message: 'page_size must be at most 10000.', param: 'page_size', path: null },
      });
    });
  },
});
