import { defineMutant } from './mutant.js';
import { isEnvelope, pathOf, rewriteJson } from './support.js';

/**
 * The key list scoped by the key that created each key, not by the account: a key created by
 * another key of the account is missing from the list of the key that asks, though keys act as
 * their account (API document, Authentication 3).
 */
export default defineMutant({
  description: 'the key list shows only the keys the asking key created itself (and those made at sign-up), not every key of the account',
  breaks: { 'KEY-3': 'fail' },
  modify: (reference) => {
    const { profile } = reference.state;
    const list = profile.paths.apiKeyList;
    const idField = profile.apiKeyFields.id;
    if (!list || !idField) return;
    const creatorOf = new Map<string, string>();
    rewriteJson(reference, (body, req) => {
      const asking = req.apiKey?.id;
      if (req.method === 'POST' && pathOf(req) === '/api/v1/api_keys' && asking && typeof body?.[idField] === 'string') creatorOf.set(body[idField], asking);
      if (req.method === 'GET' && pathOf(req) === list && isEnvelope(body) && asking) {
        const before = body.items.length;
        body.items = body.items.filter((item: Record<string, unknown>) => (creatorOf.get(String(item[idField])) ?? asking) === asking);
        body.total_count -= before - body.items.length;
      }
      return body;
    });
  },
});
