import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the facade forwards the bearer token to the backend's auth interceptor. An
 * unknown token is not found and comes back UNAUTHENTICATED (401), but a deleted key is only
 * soft-deleted: the interceptor finds its record, sees `disabled = true` and answers
 * PERMISSION_DENIED "api key disabled", which the facade's status table faithfully translates to
 * 403 authorization_error. Tests of revocation only checked that the old key "stops working".
 */
export default defineMutant({
  description: 'A request made with a deleted API key is answered 403 authorization_error ("API key disabled") instead of 401 authentication_error.',
  breaks: { 'AUTH-3': 'fail', 'KEY-5': 'fail' },
  collateral: ['AUTH-8', 'KEY-6'],
  modify: (reference) => {
    const { store } = reference.state;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (reply.statusCode !== 401) return payload;
      const match = /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '');
      if (!match) return payload;
      const key = store.findKey(match[1]!);
      if (!key || key.revokedAtMs === null) return payload;
      reply.code(403);
      return JSON.stringify({
        error: { type: 'authorization_error', code: 'api_key_disabled', message: 'The API key is disabled.', param: null, path: null },
      });
    });
  },
});
