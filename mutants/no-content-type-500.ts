import { defineMutant } from './mutant.js';

/** The body parser is picked by Content-Type, and a request without one reaches a parser that is not there. */
export default defineMutant({
  description: 'answers 500 api_error to a POST whose body comes without a Content-Type',
  breaks: { 'GEN-3': 'warn', 'GEN-4': 'warn' },
  modify: ({ app }) => {
    app.addHook('onRequest', async (req, reply) => {
      const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
      if (req.method !== 'POST' || !hasBody || req.headers['content-type'] !== undefined) return;
      await reply
        .code(500)
        .send({ error: { type: 'api_error', code: null, message: "Cannot read properties of undefined (reading 'parse')", param: null, path: null } });
    });
  },
});
