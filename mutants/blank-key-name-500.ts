import { defineMutant } from './mutant.js';
import { beforeHandler, pathOf } from './support.js';

/** A key name is slugged from its words before it is validated: a name of spaces has no first word. */
export default defineMutant({
  description: 'answers 500 api_error to a key creation whose name is only spaces',
  breaks: { 'GEN-3': 'warn' },
  modify: (reference) => {
    beforeHandler(reference, async (req, reply) => {
      const name = (req.body as { name?: unknown } | null)?.name;
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/api_keys' || typeof name !== 'string' || name === '' || name.trim() !== '') return;
      await reply
        .code(500)
        .send({ error: { type: 'api_error', code: null, message: "Cannot read properties of undefined (reading 'toLowerCase')", param: null, path: null } });
    });
  },
});
