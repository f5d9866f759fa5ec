import type { FastifyRequest } from 'fastify';
import { defineMutant } from './mutant.js';
import { isEnvelope, pathOf, rewriteJson } from './support.js';

/** A soft delete: the key list's query leaves revoked keys out, the COUNT(*) beside it does not. */
export default defineMutant({
  description: "counts deleted keys in the key list's total_count, while its items leave them out",
  breaks: { 'PAG-7': 'fail' },
  // has_more follows the items, and so falls short of the pages the inflated total_count implies.
  collateral: ['PAG-6'],
  // The key list is walked again after the writes: the keys KEY's checks created and deleted are then in the count.
  provokedBy: ['KEY'],
  modify: (reference) => {
    const list = reference.state.profile.paths.apiKeyList;
    rewriteJson(reference, (body, req: FastifyRequest) => {
      if (req.method !== 'GET' || pathOf(req) !== list || !isEnvelope(body)) return body;
      return { ...body, total_count: req.account.keys.size };
    });
  },
});
