import { defineMutant } from './mutant.js';
import { isEnvelope, rewriteJson } from './support.js';

/** The single-item endpoint reads a stale cache: a renamed workspace keeps its old name there. */
export default defineMutant({
  description: 'returns an outdated name when a workspace is retrieved by id',
  breaks: { 'RES-7': 'warn' },
  modify: (reference) => {
    rewriteJson(reference, (body) => {
      if (isEnvelope(body) || !body || typeof body.id !== 'string' || !body.id.startsWith('ws_')) return body;
      return { ...body, name: `${body.name} (old)` };
    });
  },
});
