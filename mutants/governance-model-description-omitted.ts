import { defineMutant } from './mutant.js';
import { isEnvelope, rewriteJson } from './support.js';

/** A serializer that drops null members: nullable description disappears instead of being null. */
export default defineMutant({
  description: 'omits description from governance models whose description is null',
  breaks: { 'RES-2': 'fail' },
  modify: (reference) => {
    const drop = (item: any) => {
      if (!item || typeof item.id !== 'string' || !item.id.startsWith('gm_') || item.description !== null) return item;
      const { description: _dropped, ...rest } = item;
      return rest;
    };
    rewriteJson(reference, (body) => (isEnvelope(body) ? { ...body, items: body.items.map(drop) } : drop(body)));
  },
});
