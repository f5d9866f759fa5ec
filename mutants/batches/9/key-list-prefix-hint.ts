import { defineMutant } from '../../mutant.js';
import { keptSecrets, pathOf } from '../../support.js';

/*
 * How this happens: a product manager asks for keys in the list to be recognisable "like Stripe
 * does", and the developer stores `secret.slice(0, prefix.length + 10)` as the display hint instead
 * of the last four characters. The key list now shows ten characters of every secret created
 * through the API, long after its creation.
 */
export default defineMutant({
  description: 'The key list shows each API-created key as its prefix plus the first ten secret characters (sk_XXXXXXXXXX…) instead of a four-character hint.',
  breaks: { 'KEY-3': 'fail', 'KEY-4': 'fail' },
  collateral: [],
  modify: (reference) => {
    const { profile, store } = reference.state;
    const list = profile.paths.apiKeyList;
    const idField = profile.apiKeyFields.id;
    if (!list || !idField) return;
    const secrets = keptSecrets(reference);
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || pathOf(req) !== list || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      let body: { items?: Array<Record<string, unknown>> };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (!Array.isArray(body.items)) return payload;
      for (const item of body.items) {
        const secret = secrets.get(String(item[idField]));
        if (secret) item.hint = `${secret.slice(0, store.keyPrefix.length + 10)}…`;
      }
      return JSON.stringify(body);
    });
  },
});
