import type { FastifyRequest } from 'fastify';
import { defineMutant } from './mutant.js';
import { isEnvelope, rewriteJson } from './support.js';

/** The last-use time is written once, when the key is made, and never again. */
export default defineMutant({
  description: "shows a key's creation time as its last-use time, whatever its use",
  breaks: { 'KEY-7': 'warn' },
  modify: (reference) => {
    const { profile } = reference.state;
    const list = profile.paths.apiKeyList;
    const field = profile.apiKeyFields.lastUsedAt;
    if (!list || !field) return;
    rewriteJson(reference, (body, req: FastifyRequest) => {
      if (req.method !== 'GET' || req.url.split('?')[0] !== list || !isEnvelope(body)) return body;
      for (const item of body.items) item[field] = item.created_at;
      return body;
    });
  },
});
