import { beforeItem } from '../../support.js';
import { defineMutant } from '../../mutant.js';

/** How long the outbox relay takes to pick a queued revocation up and apply it. */
const RELAY_DELAY_MS = 750;

/*
 * How this happens: SDKs began retrying DELETE /api_keys/{id} after timeouts, and a retried delete
 * of a key that the first attempt had already revoked surfaced as a 404 "API key not found" in
 * customers' key-rotation scripts, which then aborted. The team makes deletes retry-safe in two
 * steps. First, a DELETE of a key that is already deleted answers 204 again ("DELETE is idempotent,
 * RFC 9110"). Second, the revocation itself is written to the transactional outbox, the same
 * at-least-once queue that fans revocations out to every pod's auth cache, so that a request that
 * times out halfway can be retried without leaving pods disagreeing; the handler answers 204 as
 * soon as the outbox row is committed. The relay applies the row on its next poll, under a second
 * later. Nobody notices the gap: rotation scripts create the new key, swap it in and delete the old
 * one, and never use the old one again; the dashboards show deletes getting faster and 404s on
 * DELETE dropping to zero.
 */
export default defineMutant({
  description:
    'Deleting an API key answers 204 once the revocation is queued, and the key keeps authenticating until the queue applies it some 750 ms later; deleting an already deleted key answers 204 instead of 404.',
  breaks: { 'KEY-5': 'fail', 'KEY-6': 'warn' },
  collateral: ['AUTH-3', 'AUTH-8'],
  modify: (reference) => {
    const { state } = reference;
    /** Keys whose revocation is committed to the outbox but not yet applied. */
    const pending = new Set<string>();
    beforeItem(reference, 'apiKey', 'DELETE', async (id, req, reply) => {
      const key = req.account.keys.get(id);
      // Unknown ids still fall through to the reference's 404.
      if (!key) return;
      // Already revoked, or revocation already queued: the retry is acknowledged again.
      if (key.revokedAtMs !== null || pending.has(key.id)) return reply.code(204).send();
      pending.add(key.id);
      setTimeout(() => {
        pending.delete(key.id);
        key.revokedAtMs ??= state.now();
      }, RELAY_DELAY_MS).unref();
      return reply.code(204).send();
    });
  },
});
