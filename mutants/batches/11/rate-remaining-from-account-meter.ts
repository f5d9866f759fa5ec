import { defineMutant } from '../../mutant.js';

/*
 * How this happens: enforcement uses the per-key bucket, but the X-RateLimit-Remaining header is
 * filled from the account's usage meter, the counter the billing dashboard shows, which adds up
 * the requests of every key of the account in the window. With one key per account the two
 * agree, so nobody noticed; with two keys in use, each one's Remaining falls with the other's
 * requests, and goes below zero once the account has spent more than one key's ceiling.
 */
function tokenOf(header: string | undefined): string | null {
  const match = header === undefined ? null : /^bearer +(\S+)$/i.exec(header);
  return match ? match[1]! : null;
}

export default defineMutant({
  description:
    "X-RateLimit-Remaining is the ceiling minus the requests of all the account's keys in the window (enforcement stays per key): a key's Remaining falls with another key's requests and turns negative once the account has spent more than one key's budget.",
  breaks: { 'RATE-2': 'fail', 'RATE-8': 'warn' },
  collateral: ['RATE-6', 'RATE-1'],
  modify: (reference) => {
    const { state, app } = reference;
    const windowMs = state.profile.limits.windowSeconds * 1000;
    const ceiling = state.profile.limits.perKeyPerMinute;
    const meter = new Map<string, { window: number; used: number }>();
    const entry = (accountId: string) => {
      const window = Math.floor(state.now() / windowMs);
      let found = meter.get(accountId);
      if (!found || found.window !== window) meter.set(accountId, (found = { window, used: 0 }));
      return found;
    };
    // After the reference's authentication: only requests its per-key bucket let through get here.
    app.addHook('onRequest', async (req) => {
      if (req.url.startsWith('/api/') && req.apiKey) entry(req.apiKey.accountId).used++;
    });
    app.addHook('onSend', async (req, reply, payload) => {
      if (reply.getHeader('x-ratelimit-remaining') === undefined) return payload;
      const token = tokenOf(req.headers.authorization);
      const key = token ? state.store.findKey(token) : null;
      if (key) reply.header('x-ratelimit-remaining', String(ceiling - entry(key.accountId).used));
      return payload;
    });
  },
});
