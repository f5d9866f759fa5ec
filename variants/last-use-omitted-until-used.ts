import type { FastifyRequest } from 'fastify';
import { isEnvelope, pathOf, rewriteJson } from '../mutants/support.js';
import { defineVariant } from './variant.js';

/**
 * The key list is serialised with null members left out: a key never used has no last-use member
 * until its first use. The document says the list shows each key's last-use time; how it shows
 * that there is none yet is not stated, and both null and no member say it.
 */
export default defineVariant({
  description: 'leaves the last-use member out of the key list for a key never used (shown once the key has been used)',
  openPoint: 'key-last-use-none',
  atRisk: ['KEY-3', 'KEY-7'],
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
