import { defineMutant } from './mutant.js';
import { beforeItem } from './support.js';

/**
 * A read-through cache put in front of the governance model retrieval, keyed by the model's id
 * alone: ids are unique across the deployment, so nobody added the account. The account check
 * lives in the query the cache skips, so once its own account has read a model, any key is served
 * it. A state of an item × the other account.
 */
export default defineMutant({
  description: "a governance model one account has retrieved is served (200) from a cache keyed by id alone to the other account's key",
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['ERR-5', 'ERR-9'],
  modify: (reference) => {
    const cache = new Map<string, unknown>();
    beforeItem(reference, 'governanceModel', 'GET', async (id, req, reply) => {
      const cached = cache.get(id);
      if (cached !== undefined) return reply.code(200).send(cached);
      const own = req.account.data.governanceModels.find((m) => m.id === id);
      if (own) cache.set(id, own);
    });
  },
});
