import type { FastifyRequest } from 'fastify';
import { defineMutant } from './mutant.js';
import { isEnvelope, itemPrefix, pathOf, rewriteJson } from './support.js';

/** The catalogue's single-item views use a serialiser set to skip nulls; its lists do not. */
export default defineMutant({
  description: "leaves null members out when a taxonomy, field or picklist is retrieved by id (a field's null picklist_id is missing there, null in the list)",
  breaks: { 'RES-7': 'warn' },
  modify: (reference) => {
    const { paths } = reference.state.profile;
    const prefixes = [paths.taxonomy, paths.field, paths.picklist].map(itemPrefix).filter((p): p is string => p !== null);
    const retrieval = (req: FastifyRequest) => req.method === 'GET' && prefixes.some((p) => pathOf(req).startsWith(p) && pathOf(req).length > p.length);
    rewriteJson(reference, (body, req: FastifyRequest) => {
      if (!retrieval(req) || isEnvelope(body) || body === null || typeof body !== 'object' || 'error' in body) return body;
      return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null));
    });
  },
});
