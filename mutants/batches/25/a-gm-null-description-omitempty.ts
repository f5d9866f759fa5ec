import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';

/*
 * How this happens: the service is rewritten in Go. The governance model becomes a struct whose
 * nullable description is a pointer, and the developer, following the house style of the new
 * codebase, tags every optional field `json:"description,omitempty"`. With encoding/json a nil
 * pointer under omitempty is not written as null: the member is left out. The team's fixtures all
 * have descriptions, and the old Node tests were ported as "description is a string if present",
 * so nobody sees that the models without a description now lack the member altogether, in the
 * list and in the retrieval alike.
 */
export default defineMutant({
  description:
    'Governance models whose description is null are serialised without a description member at all (Go omitempty on a nil pointer), in the list and in the single-model retrieval.',
  breaks: { 'RES-2': 'fail' },
  collateral: ['RES-7'],
  modify: (reference) => {
    const list = '/api/v1/governance_models';
    const prefix = itemPrefix(reference.state.profile.paths.governanceModel);
    const omitNull = (model: unknown): void => {
      if (typeof model === 'object' && model !== null && (model as Record<string, unknown>).description === null) {
        delete (model as Record<string, unknown>).description;
      }
    };
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const path = pathOf(req);
      const isList = path === list;
      const isItem = prefix !== null && path.startsWith(prefix) && path.length > prefix.length;
      if (!isList && !isItem) return payload;
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (isList) {
        const items = (body as { items?: unknown } | null)?.items;
        if (!Array.isArray(items)) return payload;
        items.forEach(omitNull);
      } else {
        omitNull(body);
      }
      return JSON.stringify(body);
    });
  },
});
