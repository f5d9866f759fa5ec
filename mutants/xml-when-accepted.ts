import { defineMutant } from './mutant.js';

/** XML for a JSON value: elements named after the members, `item` for an array's elements. */
function xml(value: unknown, name: string): string {
  if (Array.isArray(value)) return `<${name}>${value.map((v) => xml(v, 'item')).join('')}</${name}>`;
  if (value !== null && typeof value === 'object')
    return `<${name}>${Object.entries(value)
      .map(([k, v]) => xml(v, k))
      .join('')}</${name}>`;
  const text = String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<${name}>${text}</${name}>`;
}

/**
 * Content negotiation left on in the framework: a client that asks for XML gets the same data as
 * XML, though the API's responses are always JSON.
 */
export default defineMutant({
  description: 'a request with Accept: application/xml gets the same data as XML (application/xml), not JSON',
  breaks: { 'GEN-1': 'fail' },
  collateral: ['GEN-5'],
  modify: ({ app }) => {
    app.addHook('onSend', async (req, reply, payload) => {
      const accept = String(req.headers.accept ?? '');
      if (!/application\/xml/.test(accept) || /json|\*\/\*/.test(accept) || typeof payload !== 'string') return payload;
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      reply.header('content-type', 'application/xml; charset=utf-8');
      return `<?xml version="1.0" encoding="UTF-8"?>${xml(body, 'response')}`;
    });
  },
});
