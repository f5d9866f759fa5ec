import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: the key list's response model is generated from the OpenAPI schema into a Go
 * struct whose optional members all carry `json:",omitempty"`; `last_used_at` is a `*time.Time`
 * that is nil until the key's first request. The schema meant "nullable", the generator read
 * "optional", so a key that has never been used is listed with its name but without any last-use
 * member, instead of `last_used_at: null`. Once the key is used the member appears.
 */
export default defineMutant({
  description: 'The key list leaves the last-use member out entirely (instead of null) for a key that has never been used; used keys are listed normally.',
  breaks: { 'KEY-3': 'fail' },
  collateral: ['KEY-7'],
  modify: (reference) => {
    const { profile } = reference.state;
    const list = profile.paths.apiKeyList;
    const field = profile.apiKeyFields.lastUsedAt;
    if (!list || !field) return;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || pathOf(req) !== list || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      let body: { items?: unknown };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (typeof body !== 'object' || body === null || !Array.isArray(body.items)) return payload;
      for (const item of body.items as Array<Record<string, unknown>>) {
        if (typeof item === 'object' && item !== null && item[field] === null) delete item[field];
      }
      return JSON.stringify(body);
    });
  },
});
