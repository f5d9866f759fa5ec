import { defineMutant } from '../../mutant.js';

/*
 * How this happens: key authentication moved into the gateway (a custom Kong auth plugin in front
 * of the service). Support kept asking "which key failed?", so the plugin's 401 template for a
 * well-formed but unknown or revoked key was changed to name the key the way the gateway's access
 * logs identify credentials: the prefix plus the first ten characters. Everyone assumed ten
 * characters were as harmless as the dashboard's four-character hint. A client that sends a
 * deleted key (or a live key with a typo near its end) now gets a leading run of that key's secret
 * echoed back, long after its creation.
 */
export default defineMutant({
  description:
    'The 401 for a well-formed unknown or revoked key names the key in its message as its prefix plus the first ten secret characters (e.g. "The API key sk_AbCdEfGhIj… is invalid or has been revoked.").',
  breaks: { 'KEY-4': 'fail' },
  collateral: [],
  provokedBy: ['AUTH'],
  modify: (reference) => {
    const prefix = reference.state.store.keyPrefix;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (reply.statusCode !== 401 || typeof payload !== 'string') return payload;
      const token = /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (!token || !token.startsWith(prefix)) return payload;
      let body: { error?: { type?: unknown; code?: unknown; message?: unknown } };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      const error = body.error;
      // Only the envelope of an unknown or revoked key (the header-problem 401 has no code member).
      if (!error || error.type !== 'authentication_error' || !('code' in error)) return payload;
      error.message = `The API key ${token.slice(0, prefix.length + 10)}… is invalid or has been revoked.`;
      return JSON.stringify(body);
    });
  },
});
