import { defineMutant } from '../../mutant.js';
import { errorBody } from '../../../reference/errors.js';

/*
 * How this happens: deletion is a soft delete (`revoked_at` is set), and the key lookup finds the
 * row whatever its `revoked_at`. The check for a revoked key was put in the authorisation policy
 * next to the other "is this key allowed?" rules, which all answer 403 Forbidden; the developer
 * reasons that the caller is identified, just no longer allowed. Unknown keys still get 401, and a
 * deleted key is refused at once, only with the wrong status and type.
 */
export default defineMutant({
  description: 'A deleted (revoked) API key is refused with 403 authorization_error (code key_revoked) instead of 401 authentication_error.',
  breaks: { 'KEY-5': 'fail', 'AUTH-3': 'fail' },
  collateral: ['AUTH-8'],
  modify: (reference) => {
    const { store } = reference.state;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (reply.statusCode !== 401) return payload;
      const match = /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '');
      if (!match) return payload;
      const key = store.findKey(match[1]!);
      if (!key || key.revokedAtMs === null) return payload;
      reply.code(403);
      reply.header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify(errorBody('authorization_error', 'This API key has been revoked.', { code: 'key_revoked' }));
    });
  },
});
