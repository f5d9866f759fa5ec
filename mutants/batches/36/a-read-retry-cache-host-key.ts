import { pathOf } from '../../support.js';
import { defineMutant } from '../../mutant.js';
import type { FastifyRequest } from 'fastify';

/** How long a successful read is kept to answer its retries. */
const KEEP_MS = 120_000;

/*
 * How this happens: SDK retries of timed-out reads were piling onto the database exactly when it was
 * slowest. The team puts a retry cache in front of the catalogue reads (workspaces, governance
 * models, records, taxonomies, fields, picklists: data that changes rarely, unlike keys and
 * submissions): a successful GET is kept for two minutes, and a read of the same resource in that
 * time, retry or not, is answered from memory. The cache key is `${hostname}${url}`, copied from the
 * edge cache of the dedicated deployments, where each account has a host of its own and the host
 * stands for the account. On the shared default host every account has the same hostname, so the
 * first account to read a URL fills the entry for all of them. In staging, with one test account
 * per environment, nothing looks wrong; in production the cache hit rate looks excellent.
 */
export default defineMutant({
  description:
    'Successful catalogue reads (workspaces, governance models, records, taxonomies, fields, picklists) are cached for two minutes under host and URL, without the account, and served to any key that reads the same URL.',
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['RES-4', 'RES-7'],
  modify: (reference) => {
    const { state } = reference;
    const { paths } = state.profile;
    const lists = ['/api/v1/workspaces', '/api/v1/governance_models', '/api/v1/records', paths.taxonomies, paths.fields, paths.picklists];
    const items = [paths.workspace, paths.governanceModel, paths.record, paths.taxonomy, paths.field, paths.picklist];
    const listPaths = new Set(lists.filter((p): p is string => p !== null));
    const itemPrefixes = items.filter((p): p is string => p !== null).map((p) => p.slice(0, p.indexOf('{id}')));
    const cacheable = (req: FastifyRequest) => {
      if (req.method !== 'GET') return false;
      const path = pathOf(req);
      return (
        listPaths.has(path) || itemPrefixes.some((prefix) => path.startsWith(prefix) && path.length > prefix.length && !path.slice(prefix.length).includes('/'))
      );
    };
    const cacheKey = (req: FastifyRequest) => `${req.hostname}${req.url}`;
    const cache = new Map<string, { body: string; storedAtMs: number }>();
    const served = new WeakSet<FastifyRequest>();

    reference.app.addHook('preHandler', async (req, reply) => {
      if (!cacheable(req)) return;
      const hit = cache.get(cacheKey(req));
      if (!hit) return;
      if (state.now() - hit.storedAtMs > KEEP_MS) {
        cache.delete(cacheKey(req));
        return;
      }
      served.add(req);
      return reply.code(200).type('application/json; charset=utf-8').send(hit.body);
    });
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (typeof payload === 'string' && cacheable(req) && !served.has(req) && reply.statusCode === 200) {
        if (cache.size > 5000) cache.clear();
        cache.set(cacheKey(req), { body: payload, storedAtMs: state.now() });
      }
      return payload;
    });
  },
});
