import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';

/*
 * How this happens: key deletion is a soft delete, `UPDATE api_keys SET revoked_at = now() WHERE id = ?
 * AND account_id = ?`, and the handler answers 404 only when no row was affected. The condition
 * `AND revoked_at IS NULL` was forgotten, so deleting an already deleted key matches its row again:
 * a client retrying a DELETE whose first answer it lost re-stamps the revocation and is told 204 as
 * if it had just deleted a live key. Revocation itself, the key list and unknown ids are unaffected.
 */
export default defineMutant({
  description: 'Deleting an already deleted API key answers 204 again (re-stamping its revocation) instead of 404 not_found_error.',
  breaks: { 'KEY-6': 'warn' },
  collateral: [],
  modify: (reference) => {
    const prefix = itemPrefix(reference.state.profile.paths.apiKey);
    if (!prefix) return;
    reference.app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'DELETE') return;
      const path = pathOf(req);
      if (!path.startsWith(prefix) || path.length === prefix.length) return;
      let id: string;
      try {
        id = decodeURIComponent(path.slice(prefix.length));
      } catch {
        return;
      }
      const key = req.account.keys.get(id);
      if (!key || key.revokedAtMs === null) return; // unknown or live: the normal route
      key.revokedAtMs = reference.state.now();
      return reply.code(204).send();
    });
  },
});
