import { defineMutant } from './mutant.js';
import { itemPrefix, pathOf } from './support.js';

/**
 * A response cache in front of the key list, per account and URL, for 30 s, that only a key's
 * deletion clears (the security review asked for that one): a key created after a page was read is
 * missing from it until the entry expires or a key is deleted. The class of blind batch 16's
 * `a-key-list-stale-cache` (a read, a write, the same read again), with a shorter life and its own
 * cache: caught by the explorer's cover, which reads the key list right before and right after a
 * creation (suites/explorer/key-model.ts).
 */
export default defineMutant({
  description: 'the key list is cached for 30 s per account and URL, and only deleting a key clears it: a key just created is not listed',
  breaks: { 'KEY-3': 'fail' },
  modify: (reference) => {
    const { state } = reference;
    const list = state.profile.paths.apiKeyList;
    const item = itemPrefix(state.profile.paths.apiKey);
    if (!list) return;
    const ttlMs = 30_000;
    const cache = new Map<string, Map<string, { body: string; at: number }>>();
    reference.app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'GET' || pathOf(req) !== list || !req.account) return;
      const hit = cache.get(req.account.id)?.get(req.url);
      if (!hit || state.now() - hit.at >= ttlMs) return;
      reply.code(200).type('application/json; charset=utf-8').send(hit.body);
      return reply;
    });
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (!req.account) return payload;
      const path = pathOf(req);
      if (req.method === 'DELETE' && item !== null && path.startsWith(item) && reply.statusCode < 300) cache.delete(req.account.id);
      if (req.method !== 'GET' || path !== list || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const pages = cache.get(req.account.id) ?? new Map<string, { body: string; at: number }>();
      cache.set(req.account.id, pages);
      const hit = pages.get(req.url);
      if (!hit || state.now() - hit.at >= ttlMs) pages.set(req.url, { body: payload, at: state.now() });
      return payload;
    });
  },
});
