import { defineMutant } from '../../mutant.js';

/*
 * How this happens: after a leaked key was rotated, support asked that a revoked key be told apart
 * from a mistyped one, so the security team added a friendlier 401 for revoked keys naming the key
 * and when it was revoked. The key is "masked" with the log-scrubbing helper, which keeps the
 * prefix and the next nine characters plus the last four (`sk_AbCdEfGhI…wxyz`), as the team's
 * logs do. Unknown keys still get the generic message; only a revoked key's 401 echoes nine
 * characters of its secret, in a response long after the key's creation.
 */
export default defineMutant({
  description:
    'The 401 for a revoked key names the key in its message, masked as its prefix plus the first nine secret characters and the last four, so a part of the secret is shown again after creation.',
  breaks: { 'KEY-4': 'fail' },
  collateral: [],
  modify: (reference) => {
    const { store } = reference.state;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (reply.statusCode !== 401 || typeof payload !== 'string') return payload;
      const match = /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '');
      if (!match) return payload;
      const token = match[1]!;
      const key = store.findKey(token);
      if (!key || key.revokedAtMs === null) return payload;
      let body: { error?: { type?: unknown; message?: unknown } };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (typeof body.error !== 'object' || body.error === null || body.error.type !== 'authentication_error') return payload;
      const masked = `${token.slice(0, store.keyPrefix.length + 9)}…${token.slice(-4)}`;
      body.error.message = `The API key ${masked} was revoked at ${new Date(key.revokedAtMs).toISOString()}; create a new key.`;
      return JSON.stringify(body);
    });
  },
});
