import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: the ORM models governance-model descriptions as a one-to-one relation on a
 * `governance_model_descriptions` table (a model without a description has no row), loaded lazily.
 * The list endpoint turned into an N+1, so the team put a DataLoader in front of it: one
 * `WHERE model_id IN (...)` query per page. DataLoader threw "must return an Array of the same
 * length as the Array of keys" whenever a model on the page had no description, and the quick fix
 * padded the result by position: `ids.map((_, i) => rows[i]?.body ?? null)`, instead of matching
 * each row to its key by `model_id`. On a page where a model without a description comes before
 * one with it, the descriptions slide up one slot and the last models show null. The retrieval
 * endpoint still loads the one model's description lazily, so it is right; the list's
 * descriptions are plausible lorem-like sentences or null, which nobody reads against the model.
 */
export default defineMutant({
  description:
    'The governance model list batch-loads descriptions and pairs them with models by position rather than by model id, so after a model without a description the following models show the next description along.',
  breaks: { 'RES-7': 'warn' },
  modify: (reference) => {
    const list = '/api/v1/governance_models';
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || pathOf(req) !== list || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      let body: { items?: unknown };
      try {
        body = JSON.parse(payload) as { items?: unknown };
      } catch {
        return payload;
      }
      if (!Array.isArray(body.items)) return payload;
      const items = body.items as { id: string; description: string | null }[];
      // The IN query's rows: only models that have a description, in id order.
      const rows = items.filter((m) => m.description !== null).map((m) => m.description);
      // Padded by position to satisfy DataLoader's length check.
      items.forEach((model, i) => (model.description = rows[i] ?? null));
      return JSON.stringify(body);
    });
  },
});
