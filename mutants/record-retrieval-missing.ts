import { defineMutant } from './mutant.js';
import { beforeItem } from './support.js';

/** Records are listed from a search index but fetched from a store that lags behind. */
export default defineMutant({
  description: 'answers 404 when a listed record is retrieved by its id',
  breaks: { 'RES-4': 'fail' },
  collateral: ['RES-3', 'RES-7', 'AUTH-6'],
  modify: (reference) => {
    beforeItem(reference, 'record', 'GET', async (_id, _req, reply) => {
      await reply.code(404).send({ error: { type: 'not_found_error', code: null, message: 'Record not found.', param: null, path: null } });
    });
  },
});
