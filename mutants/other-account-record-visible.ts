import { defineMutant } from './mutant.js';
import { beforeItem } from './support.js';

/** Record retrieval reads a global table by id and forgets the account filter. */
export default defineMutant({
  description: "answers a record retrieval with another account's record when the id is not the caller's",
  breaks: { 'AUTH-6': 'fail' },
  modify: (reference) => {
    beforeItem(reference, 'record', 'GET', async (id, req, reply) => {
      if (req.account.data.records.indexOf(id) !== null) return;
      for (const account of reference.state.store.accounts) {
        const index = account.data.records.indexOf(id);
        if (index !== null) return reply.send(account.data.records.at(index));
      }
    });
  },
});
