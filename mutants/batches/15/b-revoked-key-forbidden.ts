import { defineMutant } from '../../mutant.js';
import { errorBody } from '../../../reference/errors.js';

/*
 * How this happens: deleting a key is a soft delete (`is_active = false`), and the auth middleware
 * looks the token up among all keys, active or not. A token that matches no row raises
 * `NotAuthenticated` (401), but one that matches an inactive row raises `PermissionDenied`, on the
 * reasoning that "the key is known, it just may not be used any more", and the exception mapper
 * turns that into 403 `authorization_error`. Unknown and malformed keys are still 401; only a
 * revoked key is refused with the wrong status and type.
 */
export default defineMutant({
  description: 'A revoked (deleted) API key is refused with 403 authorization_error (code key_revoked) instead of 401 authentication_error.',
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
      return JSON.stringify(errorBody('authorization_error', 'This API key has been deactivated.', { code: 'key_revoked' }));
    });
  },
});
