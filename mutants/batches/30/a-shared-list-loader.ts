import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: the REST facade resolves list endpoints through a GraphQL backend and batches
 * the calls with a DataLoader keyed by the query's variables (page, limit). The viewer is implicit
 * in the GraphQL context, so it is not part of the key, and the loader was instantiated once at
 * module scope instead of per request. Its memo cache never expires: whichever account first asks
 * for a given page of workspaces or governance models has its answer served to every key after it.
 */
export default defineMutant({
  description:
    'Workspace and governance model list pages are memoised by page and limit in a process-wide loader shared by all API keys, so a key can be served the page another account requested first.',
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['RES-4', 'RES-7', 'ERR-3', 'ERR-7', 'SUB-1', 'SUB-2', 'SUB-3', 'SUB-4', 'SUB-5'],
  modify: (reference) => {
    const lists = new Set(['/api/v1/workspaces', '/api/v1/governance_models']);
    const memo = new Map<string, string>();
    reference.app.addHook('onSend', async (req, reply, payload) => {
      const path = pathOf(req);
      if (req.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string' || !lists.has(path)) return payload;
      const query = (req.query ?? {}) as Record<string, unknown>;
      const key = `${path}|${String(query.page ?? '')}|${String(query.limit ?? '')}`;
      const hit = memo.get(key);
      if (hit !== undefined) return hit;
      memo.set(key, payload);
      return payload;
    });
  },
});
