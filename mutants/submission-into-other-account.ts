import { defineMutant } from './mutant.js';
import { beforeHandler, foreignOwner, namedWorkspaces, pathOf } from './support.js';

/** Submission creation looks the workspace up in every account, not only the caller's. */
export default defineMutant({
  description: "accepts a submission into another account's workspace (201), filing it there",
  breaks: { 'AUTH-6': 'fail' },
  modify: (reference) => {
    const { store } = reference.state;
    beforeHandler(reference, async (req, reply) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      const body = (req.body ?? {}) as Record<string, unknown>;
      const named = namedWorkspaces(reference, req).find((id) => typeof id === 'string' && id !== '');
      const owner = foreignOwner(reference, req, named);
      if (!owner) return;
      const submission = {
        id: store.nextId('sub'),
        workspace_id: named as string,
        taxonomy_id: typeof body.taxonomy_id === 'string' ? body.taxonomy_id : owner.data.taxonomies[0]!.id,
        row_count: Array.isArray(body.rows) ? body.rows.length : 0,
        created_at: new Date(reference.state.now()).toISOString(),
      };
      owner.submissions.push(submission);
      await reply.code(201).send(submission);
    });
  },
});
