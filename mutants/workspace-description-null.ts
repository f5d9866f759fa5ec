import { defineMutant } from './mutant.js';
import { isEnvelope, rewriteJson } from './support.js';

/** A nullable database column leaks through: workspaces without a description say null. */
export default defineMutant({
  description: 'sends description: null for workspaces that have none, though the document types it as a string',
  breaks: { 'RES-1': 'fail' },
  modify: (reference) => {
    const clear = (item: any) =>
      item && typeof item.id === 'string' && item.id.startsWith('ws_') && item.name !== 'Main' ? { ...item, description: null } : item;
    rewriteJson(reference, (body) => (isEnvelope(body) ? { ...body, items: body.items.map(clear) } : clear(body)));
  },
});
