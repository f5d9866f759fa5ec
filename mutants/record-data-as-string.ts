import { defineMutant } from './mutant.js';
import { isEnvelope, rewriteJson } from './support.js';

/** A JSON column serialised twice: data arrives as a string of JSON. */
export default defineMutant({
  description: "sends a record's data as a JSON-encoded string instead of an object",
  breaks: { 'RES-3': 'fail' },
  modify: (reference) => {
    const stringify = (item: any) => (item && typeof item.id === 'string' && item.id.startsWith('rec_') ? { ...item, data: JSON.stringify(item.data) } : item);
    rewriteJson(reference, (body) => (isEnvelope(body) ? { ...body, items: body.items.map(stringify) } : stringify(body)));
  },
});
