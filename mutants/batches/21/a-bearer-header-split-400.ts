import type { IncomingMessage } from 'node:http';
import { errorBody } from '../../../reference/errors.js';
import { defineMutant } from '../../mutant.js';
import { beforeReference } from '../../support.js';

/*
 * How this happens: authentication is passport with the stock passport-http-bearer strategy. It
 * splits the Authorization header on single spaces and, when that does not give exactly two parts,
 * calls `fail(400)` before it ever looks at the scheme. The team's custom passport callback writes
 * the JSON authentication error with the status passport hands it (`status ?? 401`), so a header of
 * `Bearer` alone, or `Bearer <key> extra`, is answered 400 instead of 401. A header with two parts
 * (another scheme, an unknown key, a token without the prefix) still gets the usual 401.
 */
export default defineMutant({
  description:
    'An Authorization header that does not split into exactly two space-separated parts ("Bearer" with no token, extra parts after the token) is answered 400 instead of 401.',
  breaks: { 'AUTH-2': 'fail' },
  collateral: ['AUTH-7', 'ERR-2'],
  modify: (reference) => {
    const split = new WeakSet<IncomingMessage>();
    beforeReference(reference, (req) => {
      const header = req.headers.authorization;
      if (!req.url?.startsWith('/api/') || header === undefined || header === '' || header.split(' ').length === 2) return;
      split.add(req);
      // Never reaches a key lookup or the per-IP limiter: the reference answers it as malformed.
      req.headers.authorization = 'Malformed';
    });
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (!split.has(req.raw)) return payload;
      reply.code(400);
      return JSON.stringify(errorBody('authentication_error', 'The Authorization header must be "Bearer <API_KEY>".'));
    });
  },
});
