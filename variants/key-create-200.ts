import { pathOf } from '../mutants/support.js';
import { defineVariant } from './variant.js';

/** Key creation answers 200, not 201: the success statuses of the key operations are not shown. */
export default defineVariant({
  description: 'answers 200 (not 201) when a key is created, with the same body',
  openPoint: 'key-operations',
  atRisk: ['KEY-1', 'KEY-2', 'KEY-8', 'AUTH-1', 'AUTH-2'],
  modify: ({ app }) => {
    app.addHook('onSend', async (req, reply, payload) => {
      if (req.method === 'POST' && pathOf(req) === '/api/v1/api_keys' && reply.statusCode === 201) reply.code(200);
      return payload;
    });
  },
});
