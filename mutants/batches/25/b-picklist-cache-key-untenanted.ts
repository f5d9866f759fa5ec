import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: picklists began as a global library shared by every account, and their list
 * was memoised in the service layer under a key built from the route and the query string
 * (`picklists:list:<url>`, 60 s). When picklists became per-account in a later migration, the
 * queries gained an `account_id` filter but the memoisation key did not. Within a minute of one
 * account listing picklists, another account asking for the same page and limit is served the
 * first account's page. Each team member's tests run with one account, so they never see it.
 */
const TTL_MS = 60_000;

export default defineMutant({
  description:
    "The picklist list is cached for 60 s under its URL without the account in the cache key, so a second account requesting the same page/limit soon after gets the first account's picklists.",
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['RES-5', 'RES-7', 'PAG-6', 'PAG-7', 'PAG-8', 'PAG-9'],
  provokedBy: ['RES'],
  modify: (reference) => {
    const list = reference.state.profile.paths.picklists;
    if (!list) return;
    const cache = new Map<string, { payload: string; at: number }>();
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || pathOf(req) !== list || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const now = reference.state.now();
      const hit = cache.get(req.url);
      if (hit && now - hit.at < TTL_MS) return hit.payload;
      cache.set(req.url, { payload, at: now });
      return payload;
    });
  },
});
