import { defineMutant } from './mutant.js';
import { isEnvelope, rewriteJson } from './support.js';

/** "No such page": a page beyond the last one is treated as a missing resource. */
export default defineMutant({
  description: 'answers 404 not_found_error to a page past the end instead of an empty page',
  breaks: { 'PAG-9': 'warn' },
  modify: (reference) => {
    rewriteJson(reference, (body, req, reply) => {
      const page = Number((req.query as Record<string, unknown>).page ?? 1);
      if (!isEnvelope(body) || page <= 1 || body.items.length > 0) return body;
      reply.code(404);
      return { error: { type: 'not_found_error', code: null, message: `Page ${page} not found.`, param: null, path: null } };
    });
  },
});
