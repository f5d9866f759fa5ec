import { defineMutant } from './mutant.js';

/** The body parser's exception escapes to the generic handler. */
export default defineMutant({
  description: 'answers 500 api_error to a request body that is not valid JSON',
  breaks: { 'GEN-4': 'warn', 'GEN-3': 'warn' },
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode !== 400 || typeof payload !== 'string' || !payload.includes('"invalid_json"')) return payload;
      reply.code(500);
      return JSON.stringify({ error: { type: 'api_error', code: null, message: 'Unexpected token in JSON', param: null, path: null } });
    });
  },
});
