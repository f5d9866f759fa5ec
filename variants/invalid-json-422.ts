import { errorBody } from '../reference/errors.js';
import { defineVariant } from './variant.js';

/**
 * A body that cannot be parsed is an invalid value of the body: 422 invalid_request_error naming
 * "body" (the reference answers 400). A body that parses but is not an object is 422 in both.
 */
export default defineVariant({
  description: 'answers a request body that is not valid JSON with 422 invalid_request_error, param "body"',
  openPoint: 'malformed-body-status',
  atRisk: ['GEN-4', 'ERR-2', 'ERR-4'],
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode !== 400 || typeof payload !== 'string' || !payload.includes('"invalid_json"')) return payload;
      reply.code(422);
      return JSON.stringify(errorBody('invalid_request_error', 'The request body is not valid JSON.', { code: 'invalid_json', param: 'body' }));
    });
  },
});
