import { defineMutant } from '../../mutant.js';
import { pathOf, rewriteJson } from '../../support.js';

/*
 * How this happens: to spare the key store a round-trip on requests that are bound to fail, the
 * vendor split authentication in two: the shape of the Authorization header is checked at the
 * edge, but the key itself is looked up only after the list routes' query-string schema (page,
 * limit) has run. Missing and malformed headers still get their 401; a well-formed key that is
 * unknown or revoked, sent with a bad page or limit, gets the pagination 422 instead.
 */
export default defineMutant({
  description:
    'A well-formed but unknown or revoked key sent to a list endpoint with an invalid page or limit gets 422 invalid_request_error (the pagination check runs before the key lookup) instead of 401 authentication_error.',
  breaks: { 'AUTH-3': 'fail' },
  collateral: ['KEY-5'],
  modify: (reference) => {
    const { state } = reference;
    const { paths } = state.profile;
    const lists = new Set(
      [
        '/api/v1/workspaces',
        '/api/v1/governance_models',
        '/api/v1/records',
        paths.taxonomies,
        paths.fields,
        paths.picklists,
        paths.apiKeyList,
        paths.submissionList,
      ].filter((p): p is string => typeof p === 'string'),
    );
    rewriteJson(reference, (body, req, reply) => {
      if (reply.statusCode !== 401 || (req.method !== 'GET' && req.method !== 'HEAD') || !lists.has(pathOf(req))) return body;
      // Only the envelope 401 (a well-formed key that names no live key): the header problems, which
      // carry no code member, are answered at the edge as before.
      const error = (body as { error?: Record<string, unknown> } | null)?.error;
      if (!error || error.type !== 'authentication_error' || !('code' in error)) return body;
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
