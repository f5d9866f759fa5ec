import { defineMutant } from '../../mutant.js';
import { isEnvelope, pathOf } from '../../support.js';

/*
 * How this happens: the governance model list is served from a Redis hash cache (one hash per
 * model, rebuilt when models change). Redis hashes cannot hold a null, so the cache writer skips
 * null-valued fields (`Object.entries(model).filter(([, v]) => v != null)`), and the reader turns
 * the hash back into an object as is. Models without a description come out of the list with no
 * `description` member at all; the single-model retrieval reads the database directly and still
 * shows `"description": null`.
 */
export default defineMutant({
  description:
    'In the governance model list, a model whose description is null has no description member at all (the cache drops null fields), while its retrieval shows description: null.',
  breaks: { 'RES-2': 'fail', 'RES-7': 'warn' },
  collateral: [],
  modify: (reference) => {
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || pathOf(req) !== '/api/v1/governance_models' || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (!isEnvelope(body)) return payload;
      body.items = body.items.map((item: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(item).filter(([, value]) => value !== null && value !== undefined)),
      );
      return JSON.stringify(body);
    });
  },
});
