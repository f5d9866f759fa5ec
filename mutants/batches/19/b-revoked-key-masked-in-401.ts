import { defineMutant } from '../../mutant.js';

/*
 * How this happens: support tickets about "my key stopped working" are hard to answer, so the 401
 * for an unknown or revoked key is made to name the key it refused, "masked" the way the dashboard
 * shows keys: the prefix and the first ten characters, an ellipsis, the last four. The developer
 * thinks of the leading part as a public key id; in these keys it is plain secret, and a deleted
 * key's 401 now hands back a long run of its secret after its creation.
 */
export default defineMutant({
  description:
    'The 401 for an unknown or revoked key names the refused key in its message, masked as prefix + first ten secret characters + "…" + last four, so a revoked key\'s secret reappears in a later answer.',
  breaks: { 'KEY-4': 'fail' },
  collateral: [],
  modify: (reference) => {
    const prefix = reference.state.store.keyPrefix;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (reply.statusCode !== 401 || typeof payload !== 'string') return payload;
      const match = /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '');
      const token = match?.[1];
      if (!token || !token.startsWith(prefix)) return payload;
      let body: { error?: { type?: unknown; message?: unknown; code?: unknown } };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      const error = body.error;
      if (!error || error.type !== 'authentication_error' || !('code' in error)) return payload;
      const masked = `${token.slice(0, prefix.length + 10)}…${token.slice(-4)}`;
      error.message = `The API key ${masked} is invalid or has been revoked.`;
      return JSON.stringify(body);
    });
  },
});
