import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';

/*
 * How this happens: listing keys joins the usage log to compute each key's last use, which was
 * slow, so the team put a 60-second per-account response cache in front of the key list. The
 * security review asked that deleting a key clear it, and it does; nobody thought of key creation
 * or of key use. For up to a minute after a list, a newly created key is missing from the list and
 * every key's last-use time is frozen at its value when the cache was filled.
 */
export default defineMutant({
  description:
    'The API key list is cached per account for 60 seconds and the cache is cleared only on key deletion, so a key created meanwhile is missing from the list and last-use times do not move.',
  breaks: { 'KEY-3': 'fail', 'KEY-7': 'warn' },
  collateral: [],
  modify: (reference) => {
    const { state } = reference;
    const list = state.profile.paths.apiKeyList;
    if (!list) return;
    const keyPrefix = itemPrefix(state.profile.paths.apiKey);
    const ttlMs = 60_000;
    // account id -> (request URL -> cached body and when it was filled)
    const cache = new Map<string, Map<string, { payload: string; at: number }>>();
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || pathOf(req) !== list || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const accountId = req.account?.id;
      if (!accountId) return payload;
      let pages = cache.get(accountId);
      if (!pages) cache.set(accountId, (pages = new Map()));
      const now = state.now();
      const hit = pages.get(req.url);
      if (hit && now - hit.at < ttlMs) return hit.payload;
      pages.set(req.url, { payload, at: now });
      return payload;
    });
    if (keyPrefix) {
      reference.app.addHook('onResponse', async (req, reply) => {
        const path = pathOf(req);
        if (req.method !== 'DELETE' || !path.startsWith(keyPrefix) || path.length === keyPrefix.length) return;
        if (reply.statusCode >= 200 && reply.statusCode < 300 && req.account) cache.delete(req.account.id);
      });
    }
  },
});
