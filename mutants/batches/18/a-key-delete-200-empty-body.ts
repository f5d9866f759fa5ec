import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';

/*
 * How this happens: the handlers were moved to the team's "return what you send" style during a
 * framework upgrade, and the key deletion became `await keys.revoke(id); return reply.send();`.
 * The explicit `code(204)` was lost on the way: the framework answers 200 with an empty body and
 * no Content-Type. The key is revoked exactly as before and every client that only checks for a
 * 2xx keeps working; a client that reads the 200 as JSON, as the document promises, gets nothing
 * to parse.
 */
export default defineMutant({
  description: 'Deleting an API key answers 200 with an empty body (no JSON, no Content-Type) instead of 204; the key is still revoked at once.',
  breaks: { 'GEN-1': 'fail' },
  collateral: ['GEN-5', 'KEY-5', 'KEY-6'],
  modify: (reference) => {
    const prefix = itemPrefix(reference.state.profile.paths.apiKey);
    if (!prefix) return;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      const path = pathOf(req);
      if (req.method !== 'DELETE' || !path.startsWith(prefix) || path.length === prefix.length || reply.statusCode !== 204) return payload;
      reply.code(200);
      return payload;
    });
  },
});
