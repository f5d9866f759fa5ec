import { defineMutant } from './mutant.js';
import { beforeItem } from './support.js';

/** The picklist detail route was never wired up. */
export default defineMutant({
  description: 'lists picklists but answers 404 to retrieving any of them',
  breaks: { 'RES-5': 'fail' },
  modify: (reference) => {
    beforeItem(reference, 'picklist', 'GET', async (_id, _req, reply) => {
      await reply.code(404).send({ error: { type: 'not_found_error', code: null, message: 'Not found.', param: null, path: null } });
    });
  },
});
