import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: key scopes ship in a minor release. Keys created without a `scopes` member get
 * the default `['read', 'write']`, and admin-only endpoints now declare `requiredScope: 'admin'`. The
 * scope guard runs as a preHandler in front of the route and, to send the standard
 * `WWW-Authenticate: Bearer error="insufficient_scope"` challenge, reuses the authentication
 * plugin's `unauthorized()` helper, so the refusal goes out as 401 `authentication_error` (code
 * `insufficient_scope`). The admin route's own 403 `authorization_error` is never reached any more;
 * the tests of the feature only asserted that the request was refused.
 */
export default defineMutant({
  description:
    'A key whose scopes do not cover an admin-only endpoint (every key created without explicit scopes) is refused there with 401 authentication_error, code insufficient_scope, instead of 403 authorization_error.',
  breaks: { 'AUTH-4': 'fail' },
  collateral: ['AUTH-8'],
  modify: (reference) => {
    const probe = reference.state.profile.forbiddenProbe;
    if (!probe) return;
    const adminPath = probe.path;
    const adminMethod = probe.method.toUpperCase();
    const defaultScopes: readonly string[] = ['read', 'write'];
    const requiredScope = 'admin';
    reference.app.addHook('preHandler', async (req, reply) => {
      if (req.method !== adminMethod || pathOf(req) !== adminPath) return;
      if (defaultScopes.includes(requiredScope)) return;
      reply.header('www-authenticate', `Bearer error="insufficient_scope", scope="${requiredScope}"`);
      return reply.code(401).send({
        error: {
          type: 'authentication_error',
          code: 'insufficient_scope',
          message: `The API key lacks the scope "${requiredScope}".`,
          param: null,
          path: null,
        },
      });
    });
  },
});
