import { errorBody } from '../../../reference/errors.js';
import { defineMutant } from '../../mutant.js';

/*
 * How this happens: after the split, the edge service no longer reads the keys table; it asks the
 * identity service's introspection endpoint (`GET /internal/keys/by-hash/:sha256`) for every
 * request. Identity used to answer 404 for any hash it could not match, and the edge's auth
 * middleware turns exactly that 404 into the public 401 `authentication_error`. Later the identity
 * team, asked by the audit service to tell "never existed" from "revoked", starts answering 410
 * Gone for a soft-deleted key. The auth middleware does not recognise 410, so the response falls
 * through to the edge's generic downstream error mapper, whose table maps 404 and 410 alike to the
 * public 404 `not_found_error` ("the resource is gone"). A made-up or mistyped key still gets 401,
 * which is what the smoke test and every manual check try; a revoked key now gets 404, which looks
 * like just another not-found on the dashboards.
 */
export default defineMutant({
  description: 'A request made with a deleted (revoked) key is answered 404 not_found_error instead of 401 authentication_error; unknown keys still get 401.',
  breaks: { 'KEY-5': 'fail', 'AUTH-3': 'fail' },
  modify: (reference) => {
    const { store } = reference.state;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (reply.statusCode !== 401 || !req.url.startsWith('/api/')) return payload;
      const match = /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '');
      if (!match) return payload;
      const key = store.findKey(match[1]!);
      // Identity's 410 for a soft-deleted key, through the generic mapper.
      if (!key || key.revokedAtMs === null) return payload;
      reply.code(404);
      return JSON.stringify(errorBody('not_found_error', 'The requested resource no longer exists.'));
    });
  },
});
