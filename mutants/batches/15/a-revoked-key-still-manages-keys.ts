import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';
import { sendError } from '../../../reference/errors.js';

/*
 * How this happens: key lookup (`ApiKey.find_by(digest:)`) is the authentication middleware, and
 * the revocation check (`key.revoked_at.nil?`) was added later as a separate "active key" guard,
 * mounted on the router of the resource endpoints. The key-management router was mounted before
 * that guard, in the same file as the sign-in routes, so on /api/v1/api_keys a deleted key still
 * authenticates: it can list the account's keys, create new ones and delete others, while every
 * other endpoint answers it 401.
 */
export default defineMutant({
  description:
    'A deleted API key is refused (401) on the resource endpoints but still accepted by the key-management endpoints: it can list keys, create a fresh key and delete keys.',
  breaks: { 'AUTH-3': 'fail', 'KEY-5': 'fail' },
  collateral: [],
  modify: (reference) => {
    const { profile } = reference.state;
    const keyPaths = ['/api/v1/api_keys', profile.paths.apiKeyList].filter((p): p is string => !!p);
    const keyItem = itemPrefix(profile.paths.apiKey);
    const keyManagement = (path: string) => keyPaths.includes(path) || (keyItem !== null && path.startsWith(keyItem) && path.length > keyItem.length);
    // The authentication middleware no longer refuses revoked keys: the guard below does, outside key management.
    reference.behaviour.revokedGraceMs = Number.POSITIVE_INFINITY;
    reference.app.addHook('onRequest', async (req, reply) => {
      if (!req.url.startsWith('/api/') || !req.apiKey || req.apiKey.revokedAtMs === null || keyManagement(pathOf(req))) return;
      reply.removeHeader('x-ratelimit-limit');
      reply.removeHeader('x-ratelimit-remaining');
      reply.removeHeader('x-ratelimit-reset');
      return sendError(reply, 401, 'authentication_error', 'The API key is invalid or has been revoked.');
    });
  },
});
