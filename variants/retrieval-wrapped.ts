import { pathOf, rewriteJson } from '../mutants/support.js';
import type { PathName } from '../src/profile/profile.js';
import { patternOf } from './support/routes.js';
import { defineVariant } from './variant.js';

/** The profile's retrieval paths, each with `{id}`. */
const RETRIEVALS: readonly PathName[] = ['workspace', 'governanceModel', 'record', 'taxonomy', 'field', 'picklist'];

/**
 * A retrieval answers the resource wrapped beside metadata, `{"data": {...}, "meta": {...}}`: the
 * document shows no retrieval payload ("Path and payload of these retrievals: not shown"). Lists
 * are as the document shows them.
 */
export default defineVariant({
  description: 'answers a retrieval as {"data": <the resource>, "meta": {"retrieved_at": <time>}}, lists unchanged',
  openPoint: 'retrieval-payloads',
  atRisk: ['RES-1', 'RES-2', 'RES-3', 'RES-4', 'RES-5', 'RES-7', 'AUTH-6'],
  modify: (reference) => {
    const { paths } = reference.state.profile;
    const patterns = RETRIEVALS.flatMap((name) => (paths[name] ? [patternOf(paths[name])] : []));
    rewriteJson(reference, (body, req, reply) =>
      req.method === 'GET' && reply.statusCode === 200 && patterns.some((p) => p.test(pathOf(req)))
        ? { data: body, meta: { retrieved_at: new Date().toISOString() } }
        : body,
    );
  },
});
