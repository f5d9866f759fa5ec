import { defineMutant } from './mutant.js';
import { isEnvelope, pathOf, rewriteJson } from './support.js';

/** A join that repeats a row: the second field of a list comes back with the first one's id. */
export default defineMutant({
  description: "repeats the first field's id on the second field of the field list",
  breaks: { 'RES-6': 'warn' },
  collateral: ['RES-5', 'RES-7', 'PAG-8'],
  modify: (reference) => {
    const fields = reference.state.profile.paths.fields;
    rewriteJson(reference, (body, req) => {
      if (!isEnvelope(body) || pathOf(req) !== fields || body.items.length < 2) return body;
      const items = [...body.items];
      items[1] = { ...items[1], id: items[0].id };
      return { ...body, items };
    });
  },
});
