import { defineMutant } from '../../mutant.js';
import { beforeHandler } from '../../support.js';

/*
 * How this happens: the list controllers are shared with the web app, whose list views remember
 * the page size a user last chose (`limit = params.limit || session.pageSize || 100;
 * session.pageSize = limit`). For API calls the session store is keyed by the API key, so the last
 * explicit `limit` a key sent becomes its default page size on every list endpoint. A fresh key's
 * first request without `limit` gets 100 as documented; after it once asks for `limit=7`, every
 * request that omits `limit` (or sends it empty) gets pages of 7.
 */
export default defineMutant({
  description:
    'A list request without limit (or with an empty limit) uses the last limit the same API key sent to any list endpoint as its page size, instead of the default 100.',
  breaks: { 'PAG-2': 'fail', 'PAG-10': 'warn' },
  collateral: ['PAG-6', 'PAG-7', 'PAG-8', 'PAG-9', 'RES-4', 'RES-7', 'KEY-3', 'KEY-6', 'KEY-7', 'SUB-4', 'AUTH-6'],
  modify: (reference) => {
    /** API key id -> the last valid page size it asked for. */
    const pageSize = new Map<string, string>();
    beforeHandler(reference, async (req) => {
      if (req.method !== 'GET' || !req.apiKey) return;
      const query = req.query as Record<string, unknown>;
      const asked = query.limit;
      if (asked === undefined || asked === '') {
        const remembered = pageSize.get(req.apiKey.id);
        if (remembered !== undefined) query.limit = remembered;
      } else if (typeof asked === 'string' && reference.behaviour.parsePageParam(asked, 'limit').ok) {
        pageSize.set(req.apiKey.id, asked);
      }
    });
  },
});
