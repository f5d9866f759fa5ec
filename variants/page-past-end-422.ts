import { errorBody } from '../reference/errors.js';
import { isEnvelope } from '../mutants/support.js';
import { defineVariant } from './variant.js';

/**
 * `page` is bounded by the last page: a page past the end is an out-of-range value, 422
 * invalid_request_error naming "page". Page 1 is always served, an empty list's included (its
 * one page is empty).
 */
export default defineVariant({
  description: 'answers a page past the last one with 422 invalid_request_error, param "page" (page 1 of an empty list is still 200)',
  openPoint: 'page-past-end',
  atRisk: ['PAG-9', 'PAG-1', 'PAG-3', 'PAG-7', 'PAG-10', 'ERR-4'],
  modify: ({ app, behaviour }) => {
    app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const query = req.query as Record<string, unknown>;
      const page = behaviour.parsePageParam(query.page, 'page');
      if (!page.ok || page.value <= 1n) return payload;
      const limit = behaviour.parsePageParam(query.limit, 'limit');
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (!limit.ok || !isEnvelope(body) || (page.value - 1n) * limit.value < BigInt(body.total_count)) return payload;
      const last = (BigInt(body.total_count) + limit.value - 1n) / limit.value;
      reply.code(422);
      return JSON.stringify(
        errorBody('invalid_request_error', `page ${page.value} is past the last page (${last > 0n ? last : 1n}).`, {
          code: 'page_out_of_range',
          param: 'page',
        }),
      );
    });
  },
});
