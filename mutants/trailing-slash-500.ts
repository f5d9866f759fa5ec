import { defineMutant } from './mutant.js';
import { pathOf } from './support.js';

/** A router that splits the path on "/" and reads the last segment as a resource name: an empty one breaks it. */
export default defineMutant({
  description: 'answers 500 api_error to a path under /api/v1/ that ends in a slash',
  breaks: { 'GEN-3': 'warn' },
  modify: ({ app }) => {
    app.addHook('onRequest', async (req, reply) => {
      if (!/^\/api\/v1\/.+\/$/.test(pathOf(req))) return;
      await reply
        .code(500)
        .send({ error: { type: 'api_error', code: null, message: "Cannot read properties of undefined (reading 'handler')", param: null, path: null } });
    });
  },
});
