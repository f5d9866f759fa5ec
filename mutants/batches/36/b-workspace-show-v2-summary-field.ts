import { defineMutant } from '../../mutant.js';
import { beforeItem } from '../../support.js';

/*
 * How this happens: the catalogue service ships v2 of its internal single-workspace endpoint
 * (`GET /internal/v2/workspaces/:id`) first, with the field renamed from `description` to
 * `summary` to match the new web app's wording; the list endpoint stays on v1 until the next
 * release. The edge's generated client types mark the field optional, and its retrieval mapper
 * reads `dto.description ?? ''` so that the public type stays a string. No error, no crash, no
 * schema failure: a retrieved workspace now has `description: ""` while the same workspace in
 * the list still shows its text. The contract tests between edge and catalogue only cover the
 * list endpoint, and a glance at a retrieved workspace looks fine.
 */
export default defineMutant({
  description: 'Retrieving a single workspace returns an empty description, while the workspace list shows each description correctly.',
  breaks: { 'RES-7': 'warn' },
  modify: (reference) => {
    beforeItem(reference, 'workspace', 'GET', async (id, req, reply) => {
      const found = req.account.data.workspaces.find((w) => w.id === id);
      // Not found: the catalogue's 404, mapped as before.
      if (!found) return;
      const dto: { id: string; name: string; summary: string; description?: string } = { id: found.id, name: found.name, summary: found.description };
      return reply.code(200).send({ id: dto.id, name: dto.name, description: dto.description ?? '' });
    });
  },
});
