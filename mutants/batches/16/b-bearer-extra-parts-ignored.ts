import { defineMutant } from '../../mutant.js';
import { beforeReference } from '../../support.js';

/*
 * How this happens: the regex check on the Authorization header is replaced, during a move of
 * authentication into a shared middleware, by the common idiom
 * `const [scheme, token] = header.trim().split(/\s+/)`. Array destructuring keeps the first two
 * parts and silently drops the rest, so `Bearer <key> extra` (or `Bearer <key> <other key>`, as a
 * misconfigured client concatenating two credentials sends) is read as `Bearer <key>` and accepted.
 * Every well-formed request still works, so no existing test notices.
 */
export default defineMutant({
  description:
    'An Authorization header with extra parts after the token (`Bearer <key> junk`) is accepted as if it were `Bearer <key>` (200) instead of being rejected as malformed (401).',
  breaks: { 'AUTH-2': 'fail' },
  collateral: [],
  modify: (reference) => {
    beforeReference(reference, (req) => {
      const header = req.headers.authorization;
      if (typeof header !== 'string') return;
      const [scheme, token] = header.trim().split(/\s+/);
      if (scheme && token) req.headers.authorization = `${scheme} ${token}`;
    });
  },
});
