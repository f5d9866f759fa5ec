import { defineMutant } from './mutant.js';
import { beforeHandler, pathOf } from './support.js';

/** The key endpoint validates with a schema library that answers 422 for everything. */
export default defineMutant({
  description: 'answers 422 to a key creation without name',
  breaks: { 'KEY-8': 'warn' },
  modify: (reference) => {
    beforeHandler(reference, async (req, reply) => {
      const body = req.body as Record<string, unknown> | undefined;
      if (req.method === 'POST' && pathOf(req) === '/api/v1/api_keys' && body && typeof body === 'object' && !('name' in body)) {
        await reply
          .code(422)
          .send({ error: { type: 'invalid_request_error', code: 'invalid_value', message: 'name is required.', param: 'name', path: 'name' } });
      }
    });
  },
});
