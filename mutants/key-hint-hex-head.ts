import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { defineMutant } from './mutant.js';
import { isEnvelope, rewriteJson } from './support.js';

/**
 * Keys of 48 hex digits, and a key list that shows each key's first ten digits "so that people
 * can tell their keys apart", as some dashboards show a key's head. Hex is the alphabet where
 * chance matters most (src/secrets/chance.ts): ten of its digits are a part of the secret that no
 * id explains, so KEY-3 and KEY-4 must see them, where the reference's base64url keys would show it
 * with fewer characters.
 */
export default defineMutant({
  description: "keys of 48 hex digits, the key list showing each key's first 10 digits",
  breaks: { 'KEY-3': 'fail', 'KEY-4': 'fail' },
  modify: (reference) => {
    const { store, profile } = reference.state;
    // Each hex key stands for the reference's own key of the same record: the store keeps hashes of those.
    const standsFor = new Map<string, string>();
    const heads = new Map<string, string>();
    const create = store.createKey.bind(store);
    const find = store.findKey.bind(store);
    store.createKey = (account, name) => {
      const created = create(account, name);
      const digits = randomBytes(24).toString('hex');
      const secret = `${profile.keyPrefix ?? ''}${digits}`;
      standsFor.set(secret, created.secret);
      heads.set(created.record.id, digits.slice(0, 10));
      return { record: created.record, secret };
    };
    store.findKey = (token) => find(standsFor.get(token) ?? token);
    const list = profile.paths.apiKeyList;
    const idField = profile.apiKeyFields.id ?? 'id';
    rewriteJson(reference, (body, req: FastifyRequest) => {
      if (req.method !== 'GET' || req.url.split('?')[0] !== list || !isEnvelope(body)) return body;
      for (const item of body.items) {
        const head = heads.get(item[idField]);
        if (head) item.hint = `${head}…`;
      }
      return body;
    });
  },
});
