import { defineMutant } from './mutant.js';
import { beforeHandler, pathOf } from './support.js';

/** Submission creation looks the workspace up in every account, not only the caller's. */
export default defineMutant({
  description: "accepts a submission into another account's workspace (201), filing it there",
  breaks: { 'AUTH-6': 'fail' },
  modify: (reference) => {
    const { profile, store } = reference.state;
    const param = profile.submissions.workspaceQueryParam ?? 'workspace_id';
    beforeHandler(reference, async (req, reply) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      const body = (req.body ?? {}) as Record<string, unknown>;
      const named = [(req.query as Record<string, unknown>)[param], body.workspace_id].find((id) => typeof id === 'string' && id !== '');
      const owner = store.accounts.find((a) => a !== req.account && a.data.workspaces.some((w) => w.id === named));
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
