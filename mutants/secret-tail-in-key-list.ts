import type { FastifyRequest } from 'fastify';
import { defineMutant } from './mutant.js';
import { isEnvelope, rewriteJson } from './support.js';

/** A "helpful" hint of the last twelve characters, kept in clear beside the hash. */
export default defineMutant({
  description: "shows the last 12 characters of each key's secret in the key list",
  breaks: { 'KEY-3': 'fail', 'KEY-4': 'fail' },
  modify: (reference) => {
    const { store, profile } = reference.state;
    const tails = new Map<string, string>();
    const create = store.createKey.bind(store);
    store.createKey = (account, name) => {
      const created = create(account, name);
      tails.set(created.record.id, created.secret.slice(-12));
      return created;
    };
    const list = profile.paths.apiKeyList;
    const idField = profile.apiKeyFields.id ?? 'id';
    rewriteJson(reference, (body, req: FastifyRequest) => {
      if (req.method !== 'GET' || req.url.split('?')[0] !== list || !isEnvelope(body)) return body;
      for (const item of body.items) {
        const tail = tails.get(item[idField]);
        if (tail) item.hint = `…${tail}`;
      }
      return body;
    });
  },
});
