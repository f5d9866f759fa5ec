import { defineMutant } from './mutant.js';
import { collections } from '../src/target/collections.js';
import { pathOf, rewriteJson } from './support.js';

/**
 * The list routes validate their query in a schema step that a framework runs before the route's
 * authentication hook, and the missing-credential check was moved into that hook: a request with
 * no Authorization header and a page or limit the list refuses is answered the 422 of the query,
 * not the 401. A credential state × a refused query.
 */
export default defineMutant({
  description: 'a list request with no Authorization header and a page or limit the list refuses is answered 422 invalid_request_error instead of 401',
  breaks: { 'AUTH-1': 'fail' },
  collateral: ['AUTH-7'],
  modify: (reference) => {
    const { state } = reference;
    const lists = new Set(Object.values(collections(state.profile)).map((c) => c.list));
    rewriteJson(reference, (body, req, reply) => {
      if (reply.statusCode !== 401 || req.headers.authorization !== undefined || !lists.has(pathOf(req))) return body;
      const query = req.query as Record<string, unknown>;
      for (const name of ['page', 'limit'] as const) {
        const parsed = state.behaviour.parsePageParam(query[name], name);
        if (!parsed.ok) {
          reply.code(422);
          return { error: { type: 'invalid_request_error', code: 'invalid_value', message: parsed.message, param: name, path: null } };
        }
      }
      return body;
    });
  },
});
