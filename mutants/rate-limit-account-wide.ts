import type { Account } from '../reference/store.js';
import { defineMutant } from './mutant.js';

/**
 * A header from the billing view: X-RateLimit-Limit says the account's whole budget a window, the
 * per-key ceiling times its live keys, while each key is still held to the per-key ceiling. An
 * account with one key reads right; every key it adds overstates the limit.
 */
export default defineMutant({
  description:
    "X-RateLimit-Limit on a keyed answer is the account's budget (the per-key ceiling times its live keys), not the per-key ceiling the key is held to",
  breaks: { 'RATE-2': 'fail' },
  modify: ({ app }) => {
    app.addHook('onSend', async (req, reply, payload) => {
      const limit = reply.getHeader('x-ratelimit-limit');
      // Set by the reference's authentication on a keyed request; a request without a key has none.
      const account = req.account as Account | undefined;
      if (limit === undefined || !account) return payload;
      const live = [...account.keys.values()].filter((key) => key.revokedAtMs === null).length;
      reply.header('x-ratelimit-limit', String(Number(limit) * Math.max(1, live)));
      return payload;
    });
  },
});
