import { defineMutant } from '../../mutant.js';
import { isEnvelope, rewriteJson } from '../../support.js';

/*
 * How this happens: list pages were the bulk of the API's egress, so the team moved list
 * responses to a precompiled serializer and turned on its "omit null members" option to shave
 * bytes ("a null is the same as absent, clients do `item.description ?? ''` anyway"). Single-item
 * retrievals still go through the old serializer. In every list, a member whose value is null is
 * now dropped from the item: governance models without a description come back with no
 * `description` member at all, and keys that were never used lose their last-use member.
 */
export default defineMutant({
  description:
    'List endpoints omit item members whose value is null, so governance models without a description are listed with no description member (retrievals still show it as null).',
  breaks: { 'RES-2': 'fail' },
  collateral: ['RES-7', 'KEY-3', 'KEY-7'],
  modify: (reference) => {
    rewriteJson(reference, (body, req) => {
      if (req.method !== 'GET' || !isEnvelope(body)) return body;
      body.items = body.items.map((item: unknown) => {
        if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
        return Object.fromEntries(Object.entries(item as Record<string, unknown>).filter(([, value]) => value !== null));
      });
      return body;
    });
  },
});
