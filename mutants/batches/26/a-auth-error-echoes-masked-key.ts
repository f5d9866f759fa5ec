import { defineMutant } from '../../mutant.js';

/*
 * How this happens: support tickets about "401 invalid key" were hard to triage, because customers
 * with several integrations could not tell which of their keys was being refused. Alongside the new
 * error-reporting hook, the team made the 401 for an unknown or revoked key name the key it saw,
 * passed through the shared secret-masking helper of the logging library. That helper keeps the
 * first 12 characters and elides the rest, which was designed for `sk_live_`-style prefixes (eight
 * characters of prefix, four of secret shown). With this deployment's short prefix it shows nine
 * characters of the secret, and it does so on exactly the request that follows a revocation: the
 * one response where nobody expects the key to appear again.
 */
const SHOWN = 12;

export default defineMutant({
  description:
    'The 401 for a well-formed but unknown or revoked key echoes the key "masked" to its first 12 characters, which with the short key prefix reveals nine characters of the secret after the key was deleted.',
  breaks: { 'KEY-4': 'fail' },
  collateral: [],
  provokedBy: ['AUTH'],
  modify: (reference) => {
    const { store } = reference.state;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (reply.statusCode !== 401 || typeof payload !== 'string') return payload;
      const token = /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (token === undefined || !token.startsWith(store.keyPrefix)) return payload;
      let body: { error?: { type?: unknown; message?: unknown } };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (typeof body !== 'object' || body === null || !body.error || body.error.type !== 'authentication_error') return payload;
      body.error.message = `The API key ${token.slice(0, SHOWN)}… is invalid or has been revoked.`;
      return JSON.stringify(body);
    });
  },
});
