import { defineMutant } from './mutant.js';
import { beforeHandler } from './support.js';

/** An id column of fixed width: a longer id overflows it and the server answers 500. */
export default defineMutant({
  description: 'answers 500 api_error when a path id is longer than 255 characters',
  breaks: { 'GEN-3': 'warn' },
  modify: (reference) => {
    beforeHandler(reference, async (req, reply) => {
      const id = (req.params as { id?: string }).id;
      if (id && id.length > 255) {
        await reply
          .code(500)
          .send({ error: { type: 'api_error', code: null, message: 'value too long for type character varying(255)', param: null, path: null } });
      }
    });
  },
});
