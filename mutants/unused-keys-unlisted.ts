import type { FastifyRequest } from 'fastify';
import { defineMutant } from './mutant.js';
import { isEnvelope, pathOf, rewriteJson } from './support.js';

/** The key list is built from the usage records: a key never used is not listed at all. */
export default defineMutant({
  description: 'leaves keys never used out of the key list (they appear once they have been used)',
  breaks: { 'KEY-3': 'fail' },
  modify: (reference) => {
    const { profile } = reference.state;
    const list = profile.paths.apiKeyList;
    const field = profile.apiKeyFields.lastUsedAt;
    if (!list || !field) return;
    rewriteJson(reference, (body, req: FastifyRequest) => {
      if (req.method !== 'GET' || pathOf(req) !== list || !isEnvelope(body)) return body;
      const shown = body.items.filter((item) => item[field] !== null);
      body.total_count -= body.items.length - shown.length;
      body.items = shown;
      return body;
    });
  },
});
