import type { FastifyRequest } from 'fastify';
import { defineMutant } from './mutant.js';
import { isEnvelope, pathOf, rewriteJson } from './support.js';

/** The key list is serialised with null members left out: a key never used has no last-use member. */
export default defineMutant({
  description: 'leaves the last-use member out of the key list for a key never used (shown only once the key has been used)',
  breaks: { 'KEY-3': 'fail' },
  modify: (reference) => {
    const { profile } = reference.state;
    const list = profile.paths.apiKeyList;
    const field = profile.apiKeyFields.lastUsedAt;
    if (!list || !field) return;
    rewriteJson(reference, (body, req: FastifyRequest) => {
      if (req.method !== 'GET' || pathOf(req) !== list || !isEnvelope(body)) return body;
      for (const item of body.items) if (item[field] === null) delete item[field];
      return body;
    });
  },
});
